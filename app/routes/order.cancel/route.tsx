import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { salesApi } from "#app/api-client/client.server";
import { commitCheckoutState, getCheckoutState } from "#app/state/checkout.server";
import { redirectWithToast } from "#app/state/session.server";

const REASONS: Record<string, string> = {
  declined: "El pago ha sido rechazado. No se ha cobrado nada: tu carrito sigue aquí, prueba de nuevo u otra tarjeta.",
  cancelled: "Has cancelado el pago. Tu carrito sigue aquí cuando quieras terminar la compra.",
  // The provider sent the buyer back without saying why (Redsys's URLKO, unsigned).
  failed: "El pago no se ha completado y no se ha cobrado nada. Tu carrito sigue aquí para intentarlo de nuevo.",
};

/**
 * Where a provider sends a buyer who cancelled or whose card was declined. The reservation is given
 * back at once (an idempotent call), and the buyer lands on /checkout with the cart untouched.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const transactionId = url.searchParams.get("transaction_id")?.toLowerCase();
  if (!transactionId) throw redirect("/checkout/");
  const state = await getCheckoutState(request);
  const headers = new Headers();
  if (state.sale?.tx === transactionId) {
    await salesApi.cancel(state.sale.id, state.sale.tx).catch(() => undefined);
    headers.append("Set-Cookie", await commitCheckoutState({ form: state.form }));
  }
  const reason = url.searchParams.get("reason") ?? "";
  const text = Object.hasOwn(REASONS, reason) ? REASONS[reason] : REASONS.cancelled;
  return redirectWithToast("/checkout/", { type: "error", text }, request, { headers });
}
