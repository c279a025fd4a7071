import type { OfferRating } from "#lib/schemas/offer";

const decimal = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Five stars filled to `value` (halves shown as the nearer whole); the text is for screen readers. */
export function Stars({ value, label }: { value: number; label: string }) {
  const full = Math.round(value);
  return (
    <span className="stars" role="img" aria-label={label}>
      <span aria-hidden="true">
        {"★".repeat(full)}
        <span className="stars-empty">{"★".repeat(5 - full)}</span>
      </span>
    </span>
  );
}

/** «4,5 ★★★★★ (12 valoraciones)» on cards and the offer page. */
export function RatingSummary({ rating, className = "rating" }: { rating: OfferRating; className?: string }) {
  const average = decimal.format(rating.average);
  // The word can be hidden on compact cards (it is still read out): "(6)" fits one line there.
  const count = (
    <>
      {rating.count}
      <span className="rating-word"> {rating.count === 1 ? "valoración" : "valoraciones"}</span>
    </>
  );
  return (
    <p className={className} data-testid="offer-rating">
      <Stars value={rating.average} label={`Valoración media: ${average} de 5 estrellas`} /> <strong>{average}</strong>{" "}
      <span className="muted">({count})</span>
    </p>
  );
}
