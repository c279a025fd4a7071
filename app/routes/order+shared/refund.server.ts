import { ApiError, salesApi } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { redirectWithToast } from "#app/state/session.server";
import { RefundFormSchema } from "./refund";

/**
 * The action of «Solicitar devolución» wherever a buyer sees their coupons: asks the API (as the
 * logged-in buyer, or with the coupons link's signature) and goes back to `back` with what
 * happened as a message; the page itself then shows the coupon's new state.
 */
export async function refundAction(
  request: Request,
  { saleId: signedSale, sig, back }: { saleId?: string; sig: string | null; back: string },
) {
  const parsed = RefundFormSchema.safeParse(Object.fromEntries(await readForm(request)));
  const saleId = signedSale ?? parsed.data?.sale?.toLowerCase();
  if (!parsed.success || !saleId) return redirectWithToast(back, { type: "error", text: "Ese no es un cupón de tus pedidos." }, request);
  try {
    const answer = await salesApi.requestRefund(saleId, { coupon: parsed.data.coupon, ...(sig ? { sig } : {}) }, request);
    const type = answer.outcome === "refused" ? "error" : "success";
    return redirectWithToast(`${back}#cupon-${answer.code}`, { type, text: answer.detail }, request);
  } catch (error) {
    // Not the buyer's coupon, a broken link, or the API busy: its words, in Spanish.
    if (error instanceof ApiError && error.status < 500) return redirectWithToast(back, { type: "error", text: error.message }, request);
    throw error;
  }
}
