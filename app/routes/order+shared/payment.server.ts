import type { PaymentAnswer } from "#contract/sales";
import { cartFingerprint } from "#rules/cart";
import { ApiError, salesApi } from "#app/api-client/client.server";
import { getCart } from "#app/state/cart.server";
import { commitCheckoutState, getCheckoutState, type CheckoutState } from "#app/state/checkout.server";
import { readForm } from "#app/forms/form.server";
import { redirectWithToast } from "#app/state/session.server";
import { purchaseAnalytics } from "#app/third-party/tracking.server";

/** The validated order of this cart, or null when there is none or the cart changed since. */
export async function currentOrder(request: Request): Promise<{ state: CheckoutState; token: string } | null> {
  const [state, cart] = await Promise.all([getCheckoutState(request), getCart(request)]);
  if (!state.token || !state.fp || state.fp !== cartFingerprint(cart)) return null;
  return { state, token: state.token };
}

/**
 * Creates the sale of the validated order (tickets reserved) for either way of paying: the
 * redirect form and the wallet's JS buttons. On failure, the response that sends the buyer back
 * to /checkout with the reason.
 */
export async function startPayment(
  request: Request,
): Promise<{ ok: true; payment: PaymentAnswer["payment"]; headers: Headers } | { ok: false; response: Response }> {
  const order = await currentOrder(request);
  if (!order) {
    return {
      ok: false,
      response: await redirectWithToast(
        "/checkout/",
        { type: "error", text: "Tu carrito ha cambiado. Revísalo y vuelve a continuar." },
        request,
      ),
    };
  }
  const formData = await readForm(request);
  try {
    const method = formData.get("payment_method");
    const { payment } = await salesApi.create(
      order.token,
      request,
      await purchaseAnalytics(request, formData),
      typeof method === "string" && method ? method : undefined,
    );
    const headers = new Headers({
      "Set-Cookie": await commitCheckoutState({ ...order.state, sale: { id: payment.sale_id, tx: payment.transaction_id } }),
    });
    return { ok: true, payment, headers };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const headers = { "Set-Cookie": await commitCheckoutState({ ...order.state, token: undefined }) };
    return { ok: false, response: await redirectWithToast("/checkout/", { type: "error", text: error.message }, request, { headers }) };
  }
}
