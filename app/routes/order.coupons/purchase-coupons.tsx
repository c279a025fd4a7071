import { Link } from "@remix-run/react";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import type { Purchase } from "#contract/sales";
import { ticketsInWords } from "#rules/text";

/** A paid purchase's offers and coupon codes: the success page and the link in the confirmation mail. */
export function PurchaseCoupons({ purchase, details = false }: { purchase: Purchase; details?: boolean }) {
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
              <h3 className="small">{item.coupons.length === 1 ? "Tu cupón" : "Tus cupones"}</h3>
              <ul className="coupon-list">
                {item.coupons.map((code) => (
                  <li key={code} className="coupon" data-testid="coupon-code">
                    {code}
                  </li>
                ))}
              </ul>
              {details ? (
                <dl className="small">
                  <dt>Dónde</dt>
                  <dd>{item.address || "Consulta la dirección en la página de la oferta."}</dd>
                  <dt>Validez</dt>
                  <dd>
                    {item.valid_until
                      ? item.valid_from
                        ? `Del ${formatDate(item.valid_from)} al ${formatDate(item.valid_until)}`
                        : `Hasta el ${formatDate(item.valid_until)}`
                      : "Sin fecha de caducidad"}
                  </dd>
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
