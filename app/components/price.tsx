import { discountBadgeText, priceInnerHtml } from "#app/components/card-html";

export function DiscountBadge({ actual, regular }: { actual: string; regular: string }) {
  const discount = discountBadgeText(actual, regular);
  return discount ? (
    // A plain <span> cannot carry a name (aria-label): the words are visually hidden text instead.
    <span className="badge-discount">
      <span aria-hidden="true">{discount.badge}</span>
      <span className="visually-hidden">{discount.label}</span>
    </span>
  ) : null;
}

/** The price paid and, struck through, the price before; the same markup as on the cards. */
export function PriceTag({ actual, regular, tickets = 1 }: { actual: string; regular: string; tickets?: number }) {
  return <span className="price" dangerouslySetInnerHTML={{ __html: priceInnerHtml(actual, regular, tickets) }} />;
}
