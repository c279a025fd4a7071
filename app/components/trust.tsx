import { Link } from "@remix-run/react";
import type { OfferRating } from "#contract/offers";
import { ratingDecimal } from "./card-html";
import { LockIcon } from "./icons";
import { Stars } from "./stars";
import { countOf } from "#rules/plurals";
import { WITHDRAWAL_PROMISE } from "#rules/refunds";

/** «4,6 · 31 valoraciones de sus ofertas»: the partner's stars over all its offers. */
export function OrganizationRating({ rating }: { rating: OfferRating }) {
  const average = ratingDecimal(rating.average);
  return (
    <p className="offer-org-rating" data-testid="organization-rating">
      <Stars value={rating.average} label={`Valoración del comercio: ${average} de 5 estrellas`} />{" "}
      <span className="muted">
        {average} · {countOf(rating.count, "valoración", "valoraciones")} de sus ofertas
      </span>
    </p>
  );
}

/** «12 compradas»: coupons bought in paid sales. */
export const soldText = (sold: number) => countOf(sold, "comprada", "compradas");

/**
 * What a buyer checks before paying, next to the buy button: how payment works (the configured
 * provider's methods), the offer's own cancellation and refund terms, and how many bought it.
 * Real figures only: no count until there is one, no countdowns.
 */
export function TrustBox({ paymentMethods, refundTerms, sold }: { paymentMethods: string; refundTerms?: string[]; sold?: number }) {
  return (
    <ul className="trust" aria-label="Compra segura" data-testid="trust">
      <li>
        <LockIcon />
        <span>
          <strong>Pago seguro</strong> · {paymentMethods}
        </span>
      </li>
      {refundTerms ? (
        <li>
          <span>
            {/* The promise always, in words; an offer's own terms (free cancellation…) after it. */}
            <strong>Cancelación y reembolso:</strong> {[WITHDRAWAL_PROMISE, ...refundTerms].join(" · ")} (
            <Link to="/agreement">Acuerdo de usuario</Link>).
          </span>
        </li>
      ) : null}
      {sold ? (
        <li data-testid="sold-count">
          <span>{soldText(sold)}</span>
        </li>
      ) : null}
    </ul>
  );
}
