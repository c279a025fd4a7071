import type { RequestHandler } from "express";
import { ApiError, authApi } from "#app/api-client/client.server";
import { authData, clearAuth, setAuth } from "#app/state/auth.server";
import { cookies } from "#app/state/cookies.server";

const SESSION_COOKIE = "__session";

/**
 * spec section 4: past token_expired_at, the refresh token is exchanged before any API call. Done
 * here, once per browser request and before Remix runs its loaders in parallel: the new session
 * is sent back to the browser and also written into this request's Cookie header, so every loader
 * and action of the request already sees the fresh access token. A refused refresh (revoked,
 * expired) logs the person out; an unreachable API leaves the session as it was.
 */
export const refreshAuth: RequestHandler = (req, res, next) => {
  const header = req.headers.cookie;
  if (!header?.includes(`${SESSION_COOKIE}=`)) return next();
  (async () => {
    const session = await cookies().session.getSession(header);
    const auth = authData(session);
    if (auth) res.locals.userId = subjectOf(auth.access);
    if (!auth || Date.now() < auth.token_expired_at) return;
    try {
      setAuth(session, await authApi.refresh(auth.refresh));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) return;
      clearAuth(session);
    }
    const setCookie = await cookies().session.commitSession(session);
    res.append("Set-Cookie", setCookie);
    const fresh = setCookie.split(";")[0];
    req.headers.cookie = header.replace(new RegExp(`(^|;\\s*)${SESSION_COOKIE}=[^;]*`), `$1${fresh}`);
  })()
    .catch(() => {})
    .finally(() => next());
};

/** The user id a token names (its `sub`), unverified: only for the request's log line. */
function subjectOf(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { sub?: unknown };
    return typeof claims.sub === "string" ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}
