import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { authApi } from "#app/api-client/client.server";
import { authData, clearAuth } from "#app/state/auth.server";
import { readForm } from "#app/forms/form.server";
import { backTo } from "#app/forms/redirect";
import { commitSession, flash, getSession } from "#app/state/session.server";

/** Only POST logs out: a link or a prefetch must never end a session. */
export const loader = () => redirect("/");

/**
 * Logout ends the session on the server first (its tokens stop working everywhere, a copy of this
 * cookie included), then clears authData; from the payment step it goes to /checkout (spec section 4).
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const session = await getSession(request);
  const auth = authData(session);
  // A session the API already ended (elsewhere, or by a password change) is just as gone: the
  // browser forgets it either way.
  if (auth) await authApi.logout(auth.refresh, request).catch(() => {});
  clearAuth(session);
  flash(session, { type: "success", text: "Has cerrado sesión." });
  let to = backTo(request, formData, "/");
  const path = to.split("?")[0];
  if (path === "/order" || path === "/order/") to = "/checkout";
  // Pages only a logged-in person may see would just bounce.
  else if (path.startsWith("/order/history") || path.startsWith("/cuenta")) to = "/";
  return redirect(to, { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
}
