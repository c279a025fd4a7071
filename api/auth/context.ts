import type { Request, RequestHandler } from "express";
import type { Config } from "#platform/config.server";
import { isStaff, type Role } from "#rules/roles";
import { HttpError } from "#api/http";
import type { Executor } from "#api/db/client";
import { sessionUser } from "./sessions";
import { invalidToken, verifyAccess, verifyToken } from "./tokens";

/** sessionId: the session (account_sessions.id) whose token made the request. */
export type AuthUser = { id: string; email: string; role: Role; sessionId: string };

type AuthState = { user: AuthUser | null; anonymousId: string | null; error: HttpError | null };

const STATE = Symbol("auth");
type WithAuth = Request & { [STATE]?: AuthState };

/** "Authorization: JWT <token>" (spec section 7); "Bearer" is accepted too for generic clients. */
function tokenOf(req: Request): string | null {
  const header = req.get("authorization");
  if (!header) return null;
  const match = /^(?:JWT|Bearer)\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : "";
}

/**
 * Reads the token once per request, before any route, so handlers can ask synchronously. A bad
 * or expired token does not fail public calls: the caller is anonymous there, and endpoints
 * that need a user answer 401 token_not_valid, which tells the client to refresh. A good
 * signature is not enough: the token's session must still be open and its account active (one
 * lookup by primary keys), so logout, erasure, deactivation and a password change end access
 * tokens at once, and the role is the account's current one.
 */
export function authenticate(config: Config, db: Executor): RequestHandler {
  return (req, _res, next) => {
    const state: AuthState = { user: null, anonymousId: null, error: null };
    (req as WithAuth)[STATE] = state;
    const token = tokenOf(req);
    if (token === null) return next();
    if (token === "") {
      state.error = new HttpError(401, "Cabecera Authorization mal formada: usa «JWT <token>».", { code: "bad_authorization_header" });
      return next();
    }
    verifyAccess(config, token)
      .then(
        async (claims) => {
          state.user = await sessionUser(db, claims.sub, claims.sid);
          if (!state.user) state.error = invalidToken("Esta sesión se ha cerrado. Vuelve a iniciar sesión.");
        },
        async (error: unknown) => {
          // Not an access token: perhaps an anonymous session token (POST /session/anonymous/).
          const anonymous = await verifyToken(config, token, "anonymous").catch(() => null);
          if (anonymous) state.anonymousId = anonymous.sub!;
          else state.error = error instanceof HttpError ? error : new HttpError(401, "El token no es válido.", { code: "token_not_valid" });
        },
      )
      // A database that cannot answer is the server's failure, not a bad token.
      .then(() => next(), next);
  };
}

function state(req: Request): AuthState {
  return (req as WithAuth)[STATE] ?? { user: null, anonymousId: null, error: null };
}

/** The logged-in user, or null (anonymous, or a token that did not verify). */
export function getUser(req: Request): AuthUser | null {
  return state(req).user;
}

/** The anonymous session a cookie-less client holds, when it sent that token instead of a user's. */
export function getAnonymousId(req: Request): string | null {
  return state(req).anonymousId;
}

export function requireUser(req: Request): AuthUser {
  const s = state(req);
  if (s.user) return s.user;
  throw s.error ?? new HttpError(401, "Necesitas iniciar sesión.", { code: "not_authenticated" });
}

export function requireStaff(req: Request): AuthUser {
  const user = requireUser(req);
  if (!isStaff(user.role)) throw new HttpError(403, "No tienes permiso para hacer esto.", { code: "permission_denied" });
  return user;
}

/** Someone logged in, asked before the route reads its input: a stranger's call is a 401 whatever it sends. */
export const signedIn: RequestHandler = (req, _res, next) => {
  requireUser(req);
  next();
};
