import { redirect, type Session } from "@remix-run/node";
import type { TokenPair } from "#lib/accounts";
import { setAuth } from "./auth.server";
import { safeRedirect } from "./redirect";
import { commitSession, flash } from "./session.server";

/** The local path to go back to after logging in (?redirectTo=…), never another site. */
export function loginRedirectTo(request: Request, formData?: FormData | null): string {
  const fromForm = formData?.get("redirectTo");
  const fromQuery = new URL(request.url).searchParams.get("redirectTo");
  const target = safeRedirect(typeof fromForm === "string" ? fromForm : fromQuery, "/");
  // Back to /login itself would show the form again to someone already logged in.
  return target.startsWith("/login") ? "/" : target;
}

/**
 * Every way of logging in ends here: the tokens go into the session, and the person goes back
 * where they came from.
 */
export async function completeLogin(request: Request, session: Session, pair: TokenPair, to: string) {
  setAuth(session, pair);
  session.unset("loginEmail");
  flash(session, { type: "success", text: "Has iniciado sesión." });
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { status: 303, headers });
}
