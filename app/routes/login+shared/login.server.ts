import { redirect, type Session } from "@remix-run/node";
import type { TokenPair } from "#contract/accounts";
import { mergeCarts } from "#rules/cart";
import { ApiError, customerApi, mailApi } from "#app/api-client/client.server";
import { setAuth } from "#app/state/auth.server";
import { commitCart, getCart } from "#app/state/cart.server";
import { syncLocalFavorites } from "#app/state/favorites.server";
import { safeRedirect } from "#app/forms/redirect";
import { isValidEmail } from "#rules/email";
import { commitSession, field, flash } from "#app/state/session.server";

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
export async function completeLogin(request: Request, session: Session, pair: TokenPair, to: string, message = "Has iniciado sesión.") {
  setAuth(session, pair);
  session.unset("loginEmail");
  flash(session, { type: "success", text: message });
  const headers = new Headers();
  // What this browser kept without an account joins it. Best effort: a failure here must not undo
  // the login, and the local copies stay until a later sync succeeds.
  await syncLocalFavorites(request, session, pair.access).catch(() => {});
  const cart = await mergeCartAtLogin(request, pair.access).catch(() => null);
  if (cart) headers.append("Set-Cookie", await commitCart(cart));
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { status: 303, headers });
}

/**
 * The cookie cart joins the account's cart (its items win: they are the newest), and both are
 * saved, so the cart follows the customer to another device.
 */
async function mergeCartAtLogin(request: Request, token: string) {
  const [local, server] = await Promise.all([getCart(request), customerApi.cart(request, token)]);
  const merged = mergeCarts(server, local);
  if (local.items.length || local.promoCodes.length) await customerApi.saveCart(merged, request, token);
  return merged;
}

/** The email waiting for its code on /login/registro and /login/recuperar (see takeMailedEmail). */
export function pendingLoginEmail(session: Session): string | null {
  return field(session, "loginEmail") ?? null;
}

/**
 * The link in the activation and password-reset mails names its address with a token (`t=…`,
 * opened by the API); links in mails sent before tokens, with `email=…`. Either may be opened on
 * another device: the address becomes this browser's pending one, and the same step is shown
 * again without the parameter, so the address bar, the history and referrers never hold it.
 * null when the URL has neither.
 */
export async function takeMailedEmail(
  request: Request,
  session: Session,
  purpose: "activation" | "password-reset",
): Promise<Response | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get("t");
  const old = url.searchParams.get("email");
  if (token === null && old === null) return null;
  let email: string | null = null;
  if (token) {
    // A link that does not open (copied in part, or from before a secret was retired) only
    // loses the prefill: the step asks for the address.
    email = await mailApi.link(purpose, { t: token }).then(
      (link) => link.email,
      (error: unknown) => {
        if (error instanceof ApiError && error.status < 500) return null;
        throw error;
      },
    );
  } else if (old) {
    const given = old.trim().toLowerCase();
    if (given.length <= 254 && isValidEmail(given)) email = given;
  }
  if (email) session.set("loginEmail", email);
  url.searchParams.delete("t");
  url.searchParams.delete("email");
  return redirect(`${url.pathname}${url.search}`, { headers: { "Set-Cookie": await commitSession(session) } });
}
