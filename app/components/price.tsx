import { discountBadge, formatPrice } from "#lib/prices";

export function DiscountBadge({ actual, regular }: { actual: string; regular: string }) {
  const badge = discountBadge(actual, regular);
  return badge ? (
    <span className="badge-discount" aria-label={`Descuento ${badge.replace("-", "")}`}>
      {badge}
    </span>
  ) : null;
}

export function PriceTag({ actual, regular, tickets = 1 }: { actual: string; regular: string; tickets?: number }) {
  const showRegular = regular !== actual && formatPrice(regular) !== formatPrice(actual);
  return (
    <span className="price">
      <strong className="price-actual">{formatPrice(actual, tickets)}</strong>
      {showRegular ? (
        <s className="price-regular">
          <span className="visually-hidden">Antes </span>
          {formatPrice(regular, tickets)}
        </s>
      ) : null}
    </span>
  );
}
