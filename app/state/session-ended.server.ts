import { redirect } from "@remix-run/node";
import { ApiError, authApi } from "#app/api-client/client.server";
import { authData, clearAuth, setAuth } from "./auth.server";
import { commitSession, flash, getSession } from "./session.server";

/**
 * The API no longer takes this browser's session: it was ended on another device, by a password
 * or email change, or the account changed. The browser forgets it (else /login, seeing a session,
 * would send the person straight back) and the person logs in again.
 */
export async function sessionEnded(request: Request, to: string): Promise<never> {
  const session = await getSession(request);
  const auth = authData(session);
  // An access token can be refused while its session lives on (one signed before tokens named
  // their session): a page load tries the refresh token once, and loads again with the new pair.
  const renewed = auth && request.method === "GET" ? await authApi.refresh(auth.refresh).catch(() => null) : null;
  if (renewed) {
    setAuth(session, renewed);
    const url = new URL(request.url);
    throw redirect(url.pathname + url.search, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  clearAuth(session);
  flash(session, { type: "error", text: "Tu sesión se ha cerrado. Vuelve a entrar." });
  throw redirect(to, { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
}

/** An API answer that says the session's token is no longer any good. */
export const isSessionGone = (error: unknown) => error instanceof ApiError && error.status === 401;
