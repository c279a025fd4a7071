import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { CartActionSchema, withChosenTickets } from "#app/forms/cart-form";
import { customerApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { commitCart, getCart } from "#app/state/cart.server";
import { backTo } from "#app/forms/redirect";
import { finish } from "#app/forms/respond.server";
import { getSession } from "#app/state/session.server";
import { funnelEvents } from "#app/third-party/tracking.server";
import { readForm } from "#app/forms/form.server";
import { toastOnFailure } from "#app/forms/fetcher-failure";
import { giftFormId } from "#rules/gifts";
import { refused, runCartAction, type Outcome } from "./operations.server";

/** With JS a failed post is a toast, never an error page. */
export const clientAction = toastOnFailure;

/** The cart has no page of its own: GET /cart shows the checkout. */
export const loader = () => redirect("/checkout/");

/**
 * Every cart change, one named operation per intent (operations.server.ts). The browser only
 * says what it wants; prices, stock and limits come from the API, and a rejected change leaves
 * the cart exactly as it was.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const to = backTo(request, formData, "/checkout/");
  const cart = await getCart(request);
  const parsed = CartActionSchema.safeParse(withChosenTickets(Object.fromEntries(formData)));
  let outcome: Outcome;
  if (parsed.success) {
    outcome = await runCartAction(cart, parsed.data, request);
  } else {
    // A code the schema refuses is said under the promo-code field too, with what was typed.
    const promo = formData.get("intent") === "promo-add" ? String(formData.get("promo_code") ?? "").slice(0, 60) : null;
    const message = parsed.error.issues[0]?.message ?? "No hemos entendido la petición.";
    outcome = refused(cart, message, promo === null ? undefined : { field: "promo_code", value: promo });
  }
  // Logged in, the change is saved on the account too, so the cart follows the customer.
  if (outcome.cart !== cart && viewer(await getSession(request))) {
    await customerApi.saveCart(outcome.cart, request).catch(() => {});
  }
  const events = await funnelEvents(request, [outcome.event]);
  // The offer page's «Ir a pagar» adds and goes on to pay: the checkout shows the line, no message needed.
  const pay = parsed.success && parsed.data.intent === "add" && formData.get("then") === "pay" && outcome.toast?.type === "success";
  // Without JS a refused promo code comes back at its field, where the page says why, not at the top.
  const promoRefused = formData.get("intent") === "promo-add" && outcome.toast?.type === "error";
  const giftRefused = parsed.success && parsed.data.intent === "gift-details" && outcome.toast?.type === "error" ? parsed.data : null;
  const anchor = promoRefused ? "#descuentos" : giftRefused ? `#${giftFormId(giftRefused.offerUuid)}` : null;
  return finish(request, formData, {
    to: pay ? "/checkout/" : anchor ? `${to.split("#")[0]}${anchor}` : to,
    toast: pay ? undefined : outcome.toast,
    events,
    headers: { "Set-Cookie": await commitCart(outcome.cart) },
  });
}
