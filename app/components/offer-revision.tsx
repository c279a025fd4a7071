import { REVIEWED_FIELD_LABELS, REVIEWED_TEXT_FIELDS, type RevisionOption } from "#rules/offer-revisions";
import { formatPrice } from "#rules/prices";
import type { OfferRevision } from "#contract/partner-responses";
import { ticketsInWords } from "#rules/text";

const optionText = (o: RevisionOption) => `${formatPrice(o.actual_price)} (precio habitual ${formatPrice(o.regular_price)})`;

/**
 * What a change to an offer on sale proposes, each field beside what is on sale now. The partner's
 * page and staff's review show the same list, so both read the same thing.
 */
export function RevisionChanges({ revision }: { revision: OfferRevision }) {
  const { changes, current } = revision;
  return (
    <dl className="revision-changes">
      {REVIEWED_TEXT_FIELDS.filter((field) => changes[field] !== undefined).map((field) => (
        <div key={field}>
          <dt>{REVIEWED_FIELD_LABELS[field]}</dt>
          <dd>
            <p className="revision-now">
              <span className="muted">Ahora:</span> {current[field] || "(vacío)"}
            </p>
            <p className="revision-new">
              <strong>Propuesto:</strong> {changes[field] || "(vacío)"}
            </p>
          </dd>
        </div>
      ))}
      {(changes.price_options ?? []).map((option, i) => {
        const before = option.uuid ? current.price_options?.find((c) => c.uuid === option.uuid) : undefined;
        return (
          <div key={option.uuid ?? `nueva-${i}`}>
            <dt>{before ? `Opción «${before.title}»` : `Nueva opción «${option.title}»`}</dt>
            <dd>
              {before ? (
                <p className="revision-now">
                  <span className="muted">Ahora:</span> {optionText(before)}
                </p>
              ) : null}
              <p className="revision-new">
                <strong>Propuesto:</strong> {before && before.title !== option.title ? `«${option.title}», ` : ""}
                {optionText(option)}
                {option.uuid ? "" : `, ${ticketsInWords(Number(option.available ?? 0))}`}
              </p>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
