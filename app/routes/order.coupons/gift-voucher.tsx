import type { Purchase } from "#contract/sales";
import { PurchaseCoupons } from "#app/routes/order+shared/purchase-coupons";
import type { CouponQr } from "#app/routes/order+shared/coupon-qr.server";

/** A gift's own page, from its recipient's mail: who it is for, the buyer's message, the coupons; no price. */
export function GiftVoucher({ purchase, pdf, qrs }: { purchase: Purchase; pdf: string; qrs: Record<string, CouponQr> }) {
  const gift = purchase.items[0]?.gift;
  return (
    <section className="narrow">
      <h1>Tienes un regalo{gift ? `, ${gift.recipient_name}` : ""}</h1>
      {gift?.sender_name ? (
        <p className="gift-from" data-testid="gift-from">
          De parte de {gift.sender_name}
        </p>
      ) : null}
      {gift?.message ? (
        <blockquote className="gift-message" data-testid="gift-message">
          <p>{gift.message}</p>
        </blockquote>
      ) : null}
      <p>Enseña cada código (impreso o en el móvil) al llegar al establecimiento.</p>
      <p>
        <a href={pdf} className="btn">
          Descargar el regalo en PDF
        </a>
      </p>
      <PurchaseCoupons purchase={purchase} details qrs={qrs} />
    </section>
  );
}
