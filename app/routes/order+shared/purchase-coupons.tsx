import { Link } from "@remix-run/react";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import type { Purchase } from "#contract/sales";
import { ticketsInWords } from "#rules/text";
import type { CouponQr } from "./coupon-qr.server";
import { plural } from "#rules/plurals";
import { MerchantContactBlock } from "#app/components/merchant-contact";
import { CouponRefund, CouponStateBadge } from "./refund";

function validity(item: Purchase["items"][number]): string {
  if (!item.valid_until) return "Sin fecha de caducidad";
  return item.valid_from
    ? `Del ${formatDate(item.valid_from)} al ${formatDate(item.valid_until)}`
    : `Hasta el ${formatDate(item.valid_until)}`;
}

/** The QR the till scans, drawn as SVG by the server: no script and no image request. */
function QrCode({ code, qr }: { code: string; qr: CouponQr }) {
  return (
    <svg
      className="coupon-qr"
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      width={132}
      height={132}
      role="img"
      aria-label={`Código QR del cupón ${code}`}
      shapeRendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/**
 * A paid purchase's offers and coupon codes: the success page and the link in the confirmation
 * mail. With `details`, each line says who honours it, where and until when (as the mail does);
 * with `qrs`, each code has its QR beside it (not a refunded one's: it is no longer valid).
 */
export function PurchaseCoupons({
  purchase,
  details = false,
  qrs,
  refunds = false,
}: {
  purchase: Purchase;
  details?: boolean;
  qrs?: Record<string, CouponQr>;
  /** «Solicitar devolución» under each coupon that may ask for it (the page's action answers it). */
  refunds?: boolean;
}) {
  return (
    <>
      <div className="stack">
        {purchase.items.map((item) => (
          <article key={`${item.offer_uuid}-${item.option_title}`} className="checkout-item">
            <div style={{ gridColumn: "1 / -1" }}>
              <h2>
                <Link to={`/ofertas/${item.offer_uuid}/`}>{item.title}</Link>
              </h2>
              <p className="muted small">
                {item.option_title} · {ticketsInWords(item.quantity)} · {formatPrice(item.paid_unit_price, item.quantity)}
                {item.for_present ? " · Regalo" : ""}
              </p>
              <h3 className="small">{plural(item.coupons.length, "Tu cupón", "Tus cupones")}</h3>
              <ul className={`coupon-list${qrs ? " coupon-list-qr" : ""}`}>
                {item.coupons.map((code) => {
                  const status = item.coupon_status.find((c) => c.code === code);
                  const refunded = status?.state === "refunded";
                  return (
                    <li
                      key={code}
                      id={`cupon-${code}`}
                      className={qrs ? `coupon-card${refunded ? " coupon-card-refunded" : ""}` : undefined}
                    >
                      {qrs?.[code] && !refunded ? <QrCode code={code} qr={qrs[code]} /> : null}
                      <span className="coupon" data-testid="coupon-code">
                        {code}
                      </span>
                      {status ? <CouponStateBadge coupon={status} /> : null}
                      {status && refunds ? <CouponRefund coupon={status} price={formatPrice(item.paid_unit_price)} /> : null}
                    </li>
                  );
                })}
              </ul>
              {details ? (
                <MerchantContactBlock
                  className="coupon-contact"
                  heading="h3"
                  merchant={item.merchant}
                  contact={{ phone: item.merchant_phone, email: item.merchant_email, website: item.merchant_website }}
                  conditions={item.conditions}
                />
              ) : null}
              {details ? (
                <dl className="small coupon-details">
                  {item.merchant ? (
                    <>
                      <dt>Establecimiento</dt>
                      <dd>{item.merchant}</dd>
                    </>
                  ) : null}
                  <dt>Dónde</dt>
                  <dd>{item.address || "Consulta la dirección en la página de la oferta."}</dd>
                  <dt>Validez</dt>
                  <dd>{validity(item)}</dd>
                  {item.conditions ? (
                    <>
                      <dt>Condiciones</dt>
                      <dd>{item.conditions}</dd>
                    </>
                  ) : null}
                </dl>
              ) : null}
            </div>
          </article>
        ))}
      </div>
      <p className="summary-row summary-total">
        <span>Total pagado</span>
        <span>{formatPrice(purchase.total)}</span>
      </p>
    </>
  );
}
