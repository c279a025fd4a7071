import type { OfferRating } from "#lib/schemas/offer";

const decimal = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * Five stars filled to `value` (halves shown as the nearer whole); the label is for screen readers
 * (an image's content is not read). The empty stars come from CSS: one element per rating, not
 * three, on pages that show 28 of them.
 */
export function Stars({ value, label }: { value: number; label: string }) {
  const full = Math.round(value);
  return (
    <span className="stars" role="img" aria-label={label} data-empty={"★".repeat(5 - full)}>
      {"★".repeat(full)}
    </span>
  );
}

/** «4,5 ★★★★★ (12 valoraciones)» on cards and the offer page. */
export function RatingSummary({ rating, className = "rating" }: { rating: OfferRating; className?: string }) {
  const average = decimal.format(rating.average);
  // The word can be hidden on compact cards (it is still read out): "(6)" fits one line there.
  // Whole strings, not fragments: React separates adjacent text with a comment in the HTML.
  const word = rating.count === 1 ? "valoración" : "valoraciones";
  return (
    <p className={className} data-testid="offer-rating">
      <Stars value={rating.average} label={`Valoración media: ${average} de 5 estrellas`} /> <strong>{average}</strong>{" "}
      <span className="muted">
        {`(${rating.count}`}
        <span className="rating-word">{` ${word}`}</span>)
      </span>
    </p>
  );
}
