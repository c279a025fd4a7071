import { isDeepStrictEqual } from "node:util";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { currentValues, hasChanges, REVIEWED_STATUSES, type ReviewedOffer, type RevisionChanges } from "#rules/offer-revisions";
import type { OfferStatus } from "#rules/offer-status";
import type { OfferRevision, OfferRevisionForReview } from "#contract/partner-responses";
import type { Executor, Transaction } from "#api/db/client";
import { offerRevisions, offers, organizations, priceOptions } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { inScope, type Scope } from "#api/services/access";

type RevisionRow = typeof offerRevisions.$inferSelect;
type OfferRow = typeof offers.$inferSelect;
type OptionRow = typeof priceOptions.$inferSelect;

export const needsReview = (status: string) => REVIEWED_STATUSES.includes(status as OfferStatus);

/** The reviewed part of a live offer, from its rows. */
export function reviewedOffer(offer: OfferRow, options: OptionRow[]): ReviewedOffer {
  return {
    title: offer.title,
    summary: offer.summary,
    description: offer.description,
    conditions: offer.conditions,
    price_options: options
      .slice()
      .sort((a, b) => a.position - b.position)
      .map((o) => ({
        uuid: o.id,
        title: o.title,
        actual_price: o.actualPrice,
        regular_price: o.regularPrice,
        available: o.available,
        per_customer: o.perCustomer,
      })),
  };
}

export function toRevision(row: RevisionRow, live: ReviewedOffer): OfferRevision {
  return {
    uuid: row.id,
    status: row.status,
    submitted_at: row.submittedAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    review_note: row.reviewNote,
    changes: row.changes,
    current: currentValues(live, row.changes),
  };
}

/** Per offer, the revision its screens show: the one waiting, or the last one rejected (until the next). */
export async function shownRevisions(db: Executor, offerIds: string[]): Promise<Map<string, RevisionRow>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([offerRevisions.offerId])
    .from(offerRevisions)
    .where(inArray(offerRevisions.offerId, offerIds))
    .orderBy(offerRevisions.offerId, desc(offerRevisions.submittedAt), desc(offerRevisions.id));
  return new Map(rows.filter((r) => r.status === "pending" || r.status === "rejected").map((r) => [r.offerId, r]));
}

/** The revision now waiting for this offer, if any (the caller holds the offer's row lock). */
export async function pendingRevision(tx: Transaction, offerId: string): Promise<RevisionRow | undefined> {
  const [row] = await tx
    .select()
    .from(offerRevisions)
    .where(and(eq(offerRevisions.offerId, offerId), eq(offerRevisions.status, "pending")));
  return row;
}

/**
 * Records what a partner's save changes in the reviewed fields. The same changes as the one
 * waiting keep it (and its place in staff's queue); other changes replace it; none withdraw it.
 * The caller holds the offer's row lock, so two saves at once take turns.
 */
export async function saveRevision(
  tx: Transaction,
  offerId: string,
  pending: RevisionRow | undefined,
  changes: RevisionChanges,
  by: string,
) {
  if (pending && isDeepStrictEqual(pending.changes, changes)) return;
  if (pending) await tx.update(offerRevisions).set({ status: "withdrawn" }).where(eq(offerRevisions.id, pending.id));
  if (hasChanges(changes)) await tx.insert(offerRevisions).values({ offerId, changes, submittedBy: by });
}

/** An archived offer will never be on sale again: what waited for it goes. */
export async function withdrawPending(tx: Transaction, offerId: string) {
  await tx
    .update(offerRevisions)
    .set({ status: "withdrawn" })
    .where(and(eq(offerRevisions.offerId, offerId), eq(offerRevisions.status, "pending")));
}

async function liveOf(db: Executor, offerIds: string[]) {
  if (offerIds.length === 0) return new Map<string, ReviewedOffer>();
  const [rows, options] = await Promise.all([
    db.select().from(offers).where(inArray(offers.id, offerIds)),
    db.select().from(priceOptions).where(inArray(priceOptions.offerId, offerIds)),
  ]);
  return new Map(
    rows.map((o) => [
      o.id,
      reviewedOffer(
        o,
        options.filter((p) => p.offerId === o.id),
      ),
    ]),
  );
}

/** Staff: every change waiting, oldest first. A partner: its own organisations' changes waiting. */
export async function listRevisions(db: Executor, scope: Scope, page: { page: number; pageSize: number }) {
  const where = and(eq(offerRevisions.status, "pending"), inScope(scope, offers.organizationId));
  const [[count], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(offerRevisions)
      .innerJoin(offers, eq(offers.id, offerRevisions.offerId))
      .where(where),
    db
      .select({ revision: offerRevisions, offer: offers, organizationName: organizations.name })
      .from(offerRevisions)
      .innerJoin(offers, eq(offers.id, offerRevisions.offerId))
      .innerJoin(organizations, eq(organizations.id, offers.organizationId))
      .where(where)
      .orderBy(asc(offerRevisions.submittedAt), asc(offerRevisions.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  const live = await liveOf(
    db,
    rows.map((r) => r.offer.id),
  );
  const results: OfferRevisionForReview[] = rows.map(({ revision, offer, organizationName }) => ({
    ...toRevision(revision, live.get(offer.id)!),
    offer: {
      uuid: offer.id,
      title: offer.title,
      status: offer.status,
      region: offer.province,
      organization: { uuid: offer.organizationId, name: organizationName },
    },
  }));
  return { count: Number(count?.n ?? 0), results };
}

const NOT_PENDING = "Estos cambios ya no esperan revisión: el socio los ha cambiado o retirado, o ya se revisaron.";

/** The revision and its offer, the offer's row locked; 404 outside the scope, 409 once it is no longer waiting. */
async function lockedPending(tx: Transaction, scope: Scope, id: string) {
  const [found] = await tx
    .select({ offerId: offerRevisions.offerId })
    .from(offerRevisions)
    .innerJoin(offers, eq(offers.id, offerRevisions.offerId))
    .where(and(eq(offerRevisions.id, id), inScope(scope, offers.organizationId)));
  if (!found) throw notFound("Cambios no encontrados.");
  const [offer] = await tx.select().from(offers).where(eq(offers.id, found.offerId)).for("update");
  const [revision] = await tx.select().from(offerRevisions).where(eq(offerRevisions.id, id));
  if (!offer || !revision) throw notFound("Cambios no encontrados.");
  if (revision.status !== "pending") throw new HttpError(409, NOT_PENDING);
  return { offer, revision };
}

/**
 * Staff approve a change (it goes on sale: new words, new prices for the next buyer, new options)
 * or reject it with a reason the partner reads. Tickets already sold keep the price on their sale.
 */
export async function decideRevision(
  db: Executor,
  scope: Scope,
  id: string,
  decision: { status: "approved" } | { status: "rejected"; review_note: string },
): Promise<OfferRevision> {
  return db.transaction(async (tx) => {
    const { offer, revision } = await lockedPending(tx, scope, id);
    if (decision.status === "approved") {
      if (!needsReview(offer.status)) throw new HttpError(409, "La oferta ya no está a la venta: sus cambios no se pueden aprobar.");
      await applyChanges(tx, offer.id, revision.changes);
    }
    const [row] = await tx
      .update(offerRevisions)
      .set({
        status: decision.status,
        reviewedBy: scope.actor.id,
        reviewedAt: new Date(),
        reviewNote: decision.status === "rejected" ? decision.review_note : null,
      })
      .where(eq(offerRevisions.id, id))
      .returning();
    const [live] = (await liveOf(tx, [offer.id])).values();
    return toRevision(row, live);
  });
}

async function applyChanges(tx: Transaction, offerId: string, changes: RevisionChanges) {
  const { price_options: options, ...text } = changes;
  if (Object.keys(text).length) await tx.update(offers).set(text).where(eq(offers.id, offerId));
  if (!options) return;
  const existing = await tx
    .select({ id: priceOptions.id, position: priceOptions.position })
    .from(priceOptions)
    .where(eq(priceOptions.offerId, offerId));
  let position = Math.max(-1, ...existing.map((o) => o.position));
  for (const o of options) {
    const prices = { title: o.title, actualPrice: o.actual_price, regularPrice: o.regular_price };
    if (o.uuid) {
      // An option removed since the change was sent is simply not there to change.
      await tx
        .update(priceOptions)
        .set(prices)
        .where(and(eq(priceOptions.id, o.uuid), eq(priceOptions.offerId, offerId)));
    } else {
      await tx
        .insert(priceOptions)
        .values({ ...prices, offerId, available: o.available ?? 0, perCustomer: o.per_customer ?? null, position: ++position });
    }
  }
}

/** Its partner takes a waiting change back; the offer stays as it is on sale. */
export async function withdrawRevision(db: Executor, scope: Scope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockedPending(tx, scope, id);
    await tx.update(offerRevisions).set({ status: "withdrawn" }).where(eq(offerRevisions.id, id));
  });
}
