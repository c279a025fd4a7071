import { ratingInnerHtml, starGlyphs } from "#app/components/card-html";
import type { OfferRating } from "#contract/offers";

/**
 * Five stars filled to `value` to the nearer half; the label is for screen readers (an image's
 * content is not read). The empty stars come from CSS: one element per rating, not three, on
 * pages that show 28 of them. The same markup as the cards' (app/components/card-html.ts).
 */
export function Stars({ value, label }: { value: number; label: string }) {
  const { filled, half, empty } = starGlyphs(value);
  return (
    <span className="stars" role="img" aria-label={label} data-empty={empty}>
      {filled}
      {half ? <span className="star-half">★</span> : null}
    </span>
  );
}

/** «4,5 ★★★★½ (12 valoraciones de compras verificadas)» on the offer page; the same markup as on the cards. */
export function RatingSummary({ rating, className = "rating" }: { rating: OfferRating; className?: string }) {
  return <p className={className} data-testid="offer-rating" dangerouslySetInnerHTML={{ __html: ratingInnerHtml(rating) }} />;
}
