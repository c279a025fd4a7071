import { Form, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { CouponStatus, RefundOutcome } from "#contract/refunds";
import { COUPON_STATE_LABELS, normalizeCouponCode } from "#rules/coupons";

/** «Solicitar devolución»: the one form, read by the coupons page's and «Mis pedidos»' actions. */
export const RefundFormSchema = z.object({
  intent: z.literal("refund"),
  /** «Mis pedidos» names the sale; the coupons page has it in its signed link. */
  sale: z.string().uuid("Pedido no válido.").optional(),
  coupon: z
    .string()
    .max(40)
    .transform((v) => normalizeCouponCode(v) ?? "")
    .refine(Boolean, "Ese no es un código de cupón."),
});

const OUTCOME_LABELS: Record<RefundOutcome, string> = {
  processing: "Devolución en curso",
  refunded: "Devuelto",
  review: "Devolución en revisión",
  refused: "Devolución rechazada",
};

/**
 * A coupon's state for its buyer: «Devuelto», «Canjeado», «Caducado», or what became of a refund
 * request; nothing while it is simply valid.
 */
export function CouponStateBadge({ coupon }: { coupon: Pick<CouponStatus, "state" | "refund"> }) {
  const refund = coupon.refund;
  if (coupon.state === "refunded") return <span className="coupon-state coupon-refunded">{COUPON_STATE_LABELS.refunded}</span>;
  if (refund && refund.outcome !== "refused")
    return <span className={`coupon-state coupon-refund-${refund.outcome}`}>{OUTCOME_LABELS[refund.outcome]}</span>;
  if (coupon.state === "valid") return null;
  return <span className={`coupon-state coupon-${coupon.state}`}>{COUPON_STATE_LABELS[coupon.state]}</span>;
}

/**
 * Under a coupon: what its refund request came to, in the API's words, or «Solicitar devolución»
 * when the server says it may be asked. The button opens a confirmation (a <details>, so it works
 * without JavaScript) whose form posts to this page's action.
 */
export function CouponRefund({ coupon, price, saleId }: { coupon: CouponStatus; price: string; saleId?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("coupon") === coupon.code;
  if (coupon.refund) {
    return (
      <p className={`small refund-note refund-${coupon.refund.outcome}`} data-testid="refund-note">
        {coupon.refund.detail}
      </p>
    );
  }
  if (!coupon.refundable) return null;
  return (
    <details className="refund-ask" id={`devolucion-${coupon.code}`}>
      <summary className="btn btn-small btn-secondary">
        Solicitar devolución<span className="visually-hidden"> del cupón {coupon.code}</span>
      </summary>
      <div className="refund-confirm">
        <p className="small">Te devolvemos {price} a la tarjeta o cuenta con la que pagaste y el cupón deja de ser válido.</p>
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="coupon" value={coupon.code} />
          {saleId ? <input type="hidden" name="sale" value={saleId} /> : null}
          <button type="submit" className="btn btn-small" disabled={busy}>
            {busy ? "Enviando…" : "Confirmar la devolución"}
            <span className="visually-hidden"> del cupón {coupon.code}</span>
          </button>
        </Form>
      </div>
    </details>
  );
}
