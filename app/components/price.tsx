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
  const actualText = formatPrice(actual, tickets);
  const regularText = regular === actual ? actualText : formatPrice(regular, tickets);
  return (
    <span className="price">
      <strong className="price-actual">{actualText}</strong>
      {regularText !== actualText ? (
        <s className="price-regular">
          <span className="visually-hidden">Antes </span>
          {regularText}
        </s>
      ) : null}
    </span>
  );
}
