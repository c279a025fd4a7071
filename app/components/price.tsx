import { discountBadgeText, priceInnerHtml } from "#app/components/card-html";

export function DiscountBadge({ actual, regular }: { actual: string; regular: string }) {
  const discount = discountBadgeText(actual, regular);
  return discount ? (
    <span className="badge-discount" aria-label={discount.label}>
      {discount.badge}
    </span>
  ) : null;
}

/** The price paid and, struck through, the price before; the same markup as on the cards. */
export function PriceTag({ actual, regular, tickets = 1 }: { actual: string; regular: string; tickets?: number }) {
  return <span className="price" dangerouslySetInnerHTML={{ __html: priceInnerHtml(actual, regular, tickets) }} />;
}
