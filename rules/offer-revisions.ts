/**
 * Changes to an offer that is already on sale. Its words and prices are what buyers were promised,
 * so once staff approved an offer, a partner's new title, summary, description, conditions or prices
 * wait for staff as a revision, while the approved version stays on sale unchanged. Stock, dates,
 * place and category apply at once. Written once: the API splits and applies a change with these,
 * and the partner and staff screens show a revision with them.
 */
import { toCents } from "#rules/prices";
import type { OfferStatus } from "#rules/offer-status";

/** An offer staff have approved (on sale, paused by its partner, or past its sale end): its words and prices are reviewed. */
export const REVIEWED_STATUSES: readonly OfferStatus[] = ["active", "paused", "ended"];

export const REVIEWED_TEXT_FIELDS = ["title", "summary", "description", "conditions"] as const;
export type ReviewedTextField = (typeof REVIEWED_TEXT_FIELDS)[number];

export const REVIEWED_FIELD_LABELS: Record<ReviewedTextField, string> = {
  title: "Título",
  summary: "Resumen",
  description: "Descripción",
  conditions: "Condiciones",
};

export const REVISION_STATUSES = ["pending", "approved", "rejected", "withdrawn"] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];

/**
 * A price option in a revision: an existing one (uuid) with its new name or prices, or a new one
 * (uuid null) with its tickets too, since it is not on sale before staff approve it.
 */
export type RevisionOption = {
  uuid: string | null;
  title: string;
  actual_price: string;
  regular_price: string;
  available?: number;
  per_customer?: number | null;
};

/** Only what differs from the live offer. */
export type RevisionChanges = Partial<Record<ReviewedTextField, string>> & { price_options?: RevisionOption[] };

/** The part of an offer a revision is about, live or proposed. */
export type ReviewedOffer = Record<ReviewedTextField, string> & {
  price_options: {
    uuid?: string | null;
    title: string;
    actual_price: string;
    regular_price: string;
    available: number;
    per_customer: number | null;
  }[];
};

const samePrice = (a: string, b: string) => toCents(a) === toCents(b);

/** What `proposed` changes of `live`, in the reviewed fields; {} when nothing. */
export function reviewedChanges(live: ReviewedOffer, proposed: ReviewedOffer): RevisionChanges {
  const changes: RevisionChanges = {};
  for (const field of REVIEWED_TEXT_FIELDS) if (proposed[field] !== live[field]) changes[field] = proposed[field];
  const byId = new Map(live.price_options.map((o) => [o.uuid, o]));
  const options: RevisionOption[] = [];
  for (const o of proposed.price_options) {
    const current = o.uuid ? byId.get(o.uuid) : undefined;
    if (!current) {
      options.push({
        uuid: null,
        title: o.title,
        actual_price: o.actual_price,
        regular_price: o.regular_price,
        available: o.available,
        per_customer: o.per_customer,
      });
    } else if (
      o.title !== current.title ||
      !samePrice(o.actual_price, current.actual_price) ||
      !samePrice(o.regular_price, current.regular_price)
    ) {
      options.push({ uuid: current.uuid!, title: o.title, actual_price: o.actual_price, regular_price: o.regular_price });
    }
  }
  if (options.length) changes.price_options = options;
  return changes;
}

export const hasChanges = (changes: RevisionChanges) => Object.keys(changes).length > 0;

/**
 * The offer as its partner last wrote it: the live one with the revision on top (the partner's
 * form shows this, so saving it again keeps the revision). Options the revision names that are no
 * longer there are left out.
 */
export function withChanges<T extends ReviewedOffer>(
  live: T,
  changes: RevisionChanges | null | undefined,
): Omit<T, "price_options"> & Pick<ReviewedOffer, "price_options"> {
  if (!changes) return live;
  const next: Omit<T, "price_options"> & Pick<ReviewedOffer, "price_options"> = { ...live };
  for (const field of REVIEWED_TEXT_FIELDS) if (changes[field] !== undefined) next[field] = changes[field]!;
  const proposed = new Map((changes.price_options ?? []).filter((o) => o.uuid).map((o) => [o.uuid, o]));
  next.price_options = [
    ...live.price_options.map((o) => {
      const p = o.uuid ? proposed.get(o.uuid) : undefined;
      return p ? { ...o, title: p.title, actual_price: p.actual_price, regular_price: p.regular_price } : o;
    }),
    ...(changes.price_options ?? [])
      .filter((o) => !o.uuid)
      .map((o) => ({
        uuid: null,
        title: o.title,
        actual_price: o.actual_price,
        regular_price: o.regular_price,
        available: o.available ?? 0,
        per_customer: o.per_customer ?? null,
      })),
  ];
  return next;
}

/** The live values of what a revision changes, to show beside it («Ahora» and «Propuesto»). */
export function currentValues(live: ReviewedOffer, changes: RevisionChanges): RevisionChanges {
  const current: RevisionChanges = {};
  for (const field of REVIEWED_TEXT_FIELDS) if (changes[field] !== undefined) current[field] = live[field];
  if (changes.price_options) {
    current.price_options = live.price_options
      .filter((o) => changes.price_options!.some((p) => p.uuid && p.uuid === o.uuid))
      .map((o) => ({ uuid: o.uuid ?? null, title: o.title, actual_price: o.actual_price, regular_price: o.regular_price }));
  }
  return current;
}
