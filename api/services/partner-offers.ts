import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { PartnerOffer } from "#contract/partner-responses";
import type { CategoryId } from "#rules/categories";
import { queryWords, SEARCH_MAX_WORDS } from "#rules/search";
import { OFFER_STATUS_LABELS, transitionProblem, type OfferStatus } from "#rules/offer-status";
import { REVIEWED_TEXT_FIELDS, reviewedChanges, withChanges } from "#rules/offer-revisions";
import { APPROVE_WITHOUT_PHOTO } from "#rules/images";
import { statusForSaleEnd } from "#rules/sale-end";
import { madridDate } from "#rules/dates";
import type { OfferInput, PriceOptionInput } from "#contract/partner";
import { query, type Executor, type Transaction } from "#api/db/client";
import { offerImages, offers, organizations, priceOptions } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { canSeeOrganization, inScope, type Scope } from "#api/services/access";
import { reservedByOption, soldByOption } from "#api/services/coupon-facts";
import {
  needsReview,
  pendingRevision,
  reviewedOffer,
  saveRevision,
  shownRevisions,
  toRevision,
  withdrawPending,
} from "#api/services/offer-revisions";

export type PartnerOfferFilters = {
  status?: OfferStatus;
  category?: CategoryId;
  region?: string;
  search?: string;
  organization?: string;
};

const columns = {
  offer: offers,
  organizationName: organizations.name,
};

async function withChildren(
  db: Executor,
  rows: { offer: typeof offers.$inferSelect; organizationName: string }[],
): Promise<PartnerOffer[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.offer.id);
  const [images, options, sold, reserved, revisions] = await Promise.all([
    db.select().from(offerImages).where(inArray(offerImages.offerId, ids)).orderBy(asc(offerImages.position), asc(offerImages.createdAt)),
    db.select().from(priceOptions).where(inArray(priceOptions.offerId, ids)).orderBy(asc(priceOptions.position)),
    soldByOption(db, ids),
    reservedByOption(db, ids),
    shownRevisions(db, ids),
  ]);
  const revisionOf = (o: typeof offers.$inferSelect) => {
    const row = revisions.get(o.id);
    return row
      ? toRevision(
          row,
          reviewedOffer(
            o,
            options.filter((p) => p.offerId === o.id),
          ),
        )
      : null;
  };
  return rows.map(({ offer: o, organizationName }) => ({
    uuid: o.id,
    status: o.status,
    review_note: o.reviewNote,
    submitted_at: o.submittedAt?.toISOString() ?? null,
    revision: revisionOf(o),
    title: o.title,
    summary: o.summary,
    description: o.description,
    conditions: o.conditions,
    category: o.category,
    region: o.province,
    address: o.address,
    latitude: o.latitude,
    longitude: o.longitude,
    offer_type: o.offerType,
    valid_from: o.validFrom,
    valid_until: o.validUntil,
    sale_until: o.saleUntil,
    organization: { uuid: o.organizationId, name: organizationName },
    images: images
      .filter((i) => i.offerId === o.id)
      .sort((a, b) => Number(b.cover) - Number(a.cover))
      .map((i) => ({
        uuid: i.id,
        image_url: i.imageUrl,
        cover: i.cover,
        logo: i.logo,
        width: i.width,
        height: i.height,
        alt: i.alt,
        variants: i.variants,
      })),
    price_options: options
      .filter((p) => p.offerId === o.id)
      .map((p) => ({
        uuid: p.id,
        title: p.title,
        actual_price: p.actualPrice,
        regular_price: p.regularPrice,
        available: p.available,
        per_customer: p.perCustomer,
        sold: sold.get(p.id) ?? 0,
        reserved: reserved.get(p.id) ?? 0,
      })),
    created_at: o.createdAt.toISOString(),
  }));
}

export function partnerOfferWhere(scope: Scope, f: PartnerOfferFilters): SQL | undefined {
  const parts: SQL[] = [inScope(scope, offers.organizationId)];
  if (f.status) parts.push(eq(offers.status, f.status));
  if (f.category) parts.push(eq(offers.category, f.category));
  if (f.region) parts.push(eq(offers.province, f.region));
  if (f.organization) parts.push(eq(offers.organizationId, f.organization));
  // Every word at a word start of the title or summary, as in the shop («spa» is not «España»),
  // through the offers' search index: staff search all 100,000 offers, of every status.
  const words = queryWords(f.search ?? "").slice(0, SEARCH_MAX_WORDS);
  if (words.length) parts.push(sql`${offers.searchVector} @@ to_tsquery('simple', ${words.map((w) => `${w}:*`).join(" & ")})`);
  return and(...parts);
}

export async function listPartnerOffers(
  db: Executor,
  scope: Scope,
  filters: PartnerOfferFilters,
  page: { page: number; pageSize: number },
) {
  const where = partnerOfferWhere(scope, filters);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(offers)
    .where(where);
  const rows = await db
    .select(columns)
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(where)
    // The review queue is oldest first; a partner's own list newest first.
    .orderBy(filters.status === "pending_review" ? asc(offers.submittedAt) : desc(offers.createdAt), asc(offers.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { count: Number(count?.n ?? 0), results: await withChildren(db, rows) };
}

export async function getPartnerOffer(db: Executor, scope: Scope, id: string): Promise<PartnerOffer> {
  const rows = await db
    .select(columns)
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(and(eq(offers.id, id), inScope(scope, offers.organizationId)));
  if (rows.length === 0) throw notFound("Oferta no encontrada.");
  return (await withChildren(db, rows))[0];
}

function offerColumns(input: Partial<OfferInput>) {
  const c: Partial<typeof offers.$inferInsert> = {};
  if (input.title !== undefined) c.title = input.title;
  if (input.summary !== undefined) c.summary = input.summary;
  if (input.description !== undefined) c.description = input.description;
  if (input.conditions !== undefined) c.conditions = input.conditions;
  if (input.category !== undefined) c.category = input.category;
  if (input.region !== undefined) c.province = input.region;
  if (input.address !== undefined) c.address = input.address;
  if (input.latitude !== undefined) c.latitude = input.latitude;
  if (input.longitude !== undefined) c.longitude = input.longitude;
  if (input.offer_type !== undefined) c.offerType = input.offer_type;
  if (input.valid_from !== undefined) c.validFrom = input.valid_from;
  if (input.valid_until !== undefined) c.validUntil = input.valid_until;
  if (input.sale_until !== undefined) c.saleUntil = input.sale_until;
  return c;
}

function assertOrganization(scope: Scope, organizationId: string) {
  if (!canSeeOrganization(scope, organizationId)) throw notFound("Empresa no encontrada.");
}

export async function createPartnerOffer(db: Executor, scope: Scope, input: OfferInput): Promise<PartnerOffer> {
  assertOrganization(scope, input.organization);
  const id = await db.transaction(async (tx) => {
    const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organization));
    if (!org) throw notFound("Empresa no encontrada.");
    const [row] = await tx
      .insert(offers)
      .values({
        ...offerColumns(input),
        organizationId: input.organization,
        title: input.title,
        summary: input.summary,
        category: input.category,
        province: input.region,
        status: "draft",
      })
      .returning({ id: offers.id });
    await syncPriceOptions(tx, row.id, input.price_options);
    return row.id;
  });
  return getPartnerOffer(db, scope, id);
}

/**
 * Price options are edited with their offer: listed ones are updated or added, missing ones removed.
 * Tickets already reserved or sold keep the price written on their sale line, so a new price only
 * applies to the next buyer; an option with sales cannot be removed (set its tickets to 0 instead).
 */
async function syncPriceOptions(tx: Transaction, offerId: string, inputs: PriceOptionInput[]) {
  const existing = await tx
    .select({ id: priceOptions.id, title: priceOptions.title })
    .from(priceOptions)
    .where(eq(priceOptions.offerId, offerId));
  const known = new Map(existing.map((o) => [o.id, o]));
  const kept = new Set<string>();
  for (const [position, input] of inputs.entries()) {
    const values = {
      title: input.title,
      actualPrice: input.actual_price,
      regularPrice: input.regular_price,
      available: input.available,
      perCustomer: input.per_customer,
      position,
    };
    if (input.uuid) {
      const id = input.uuid.toLowerCase();
      if (!known.has(id)) throw new HttpError(400, "Una de las opciones de precio no es de esta oferta.");
      if (kept.has(id)) throw new HttpError(400, "Una opción de precio aparece dos veces.");
      kept.add(id);
      await tx.update(priceOptions).set(values).where(eq(priceOptions.id, id));
    } else {
      await tx.insert(priceOptions).values({ ...values, offerId });
    }
  }
  for (const option of existing) {
    if (kept.has(option.id)) continue;
    const [used] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM sale_items WHERE price_option_id = ${option.id}`);
    if (Number(used?.n) > 0) {
      throw new HttpError(
        409,
        `La opción «${option.title}» ya tiene ventas: no se puede borrar. Pon sus entradas a 0 para dejar de venderla.`,
      );
    }
    await tx.delete(priceOptions).where(eq(priceOptions.id, option.id));
  }
}

export type OfferChange = Partial<OfferInput> & { status?: OfferStatus; review_note?: string };

export async function updatePartnerOffer(db: Executor, scope: Scope, id: string, change: OfferChange): Promise<PartnerOffer> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(offers)
      .where(and(eq(offers.id, id), inScope(scope, offers.organizationId)))
      .for("update");
    if (!current) throw notFound("Oferta no encontrada.");
    const from = current.status;
    const fields = offerColumns(change);
    const editing = Object.keys(fields).length > 0 || change.price_options !== undefined || change.organization !== undefined;
    if (editing && from === "archived") throw new HttpError(409, "Una oferta archivada no se puede editar.");
    let options = change.price_options;
    if (editing && !scope.staff && needsReview(from)) {
      // New words or prices for an offer on sale wait for staff; the rest applies now.
      options = await submitForReview(tx, current, change, scope.actor.id);
      for (const field of REVIEWED_TEXT_FIELDS) delete fields[field];
    }
    if (change.organization !== undefined && change.organization !== current.organizationId) {
      if (!scope.staff) throw new HttpError(400, "Una oferta no puede cambiar de empresa.");
      const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, change.organization));
      if (!org) throw notFound("Empresa no encontrada.");
      fields.organizationId = change.organization;
    }
    if (change.status !== undefined && change.status !== from) {
      const problem = transitionProblem(from, change.status, { staff: scope.staff });
      if (problem) throw new HttpError(409, problem);
      const to = change.status;
      if (to === "pending_review") {
        const [cover] = await tx
          .select({ id: offerImages.id })
          .from(offerImages)
          .where(and(eq(offerImages.offerId, id), eq(offerImages.cover, true)));
        if (!cover) throw new HttpError(409, "Añade una foto de portada antes de enviar la oferta a revisión.");
        fields.submittedAt = new Date();
        fields.reviewNote = null;
      }
      if (from === "pending_review" && to === "draft") {
        // Staff send it back with the reason; a partner withdrawing it needs none.
        if (scope.staff && !change.review_note) throw new HttpError(400, "Explica al socio por qué devuelves la oferta.");
        fields.reviewNote = change.review_note || null;
      }
      if (to === "active" && from === "pending_review") {
        // Without a photo of its own the offer would go on sale under the drawn placeholder.
        const [photo] = await tx
          .select({ id: offerImages.id })
          .from(offerImages)
          .where(and(eq(offerImages.offerId, id), eq(offerImages.logo, false)))
          .limit(1);
        if (!photo) throw new HttpError(409, APPROVE_WITHOUT_PHOTO);
        fields.reviewNote = null;
      }
      if (to === "archived") await withdrawPending(tx, id);
      fields.status = to;
    }
    // On sale or not by its sale end, at once: a past end ends it, a later one puts it back.
    const status = fields.status ?? from;
    const bySaleEnd = statusForSaleEnd(
      status,
      fields.saleUntil !== undefined ? fields.saleUntil : current.saleUntil,
      madridDate(new Date()),
    );
    if (bySaleEnd !== status) fields.status = bySaleEnd;
    if (Object.keys(fields).length > 0) await tx.update(offers).set(fields).where(eq(offers.id, id));
    if (options !== undefined) await syncPriceOptions(tx, id, options);
  });
  return getPartnerOffer(db, scope, id);
}

/**
 * The reviewed part of a partner's change to an approved offer: what it proposes on top of the
 * change already waiting (the partner's form shows that one) is compared with the live offer, and
 * the difference becomes the revision. Answers the price options to apply now: the existing ones
 * with their live names and prices (their tickets change at once), removed ones gone, new ones left
 * for staff.
 */
async function submitForReview(
  tx: Transaction,
  current: typeof offers.$inferSelect,
  change: OfferChange,
  by: string,
): Promise<PriceOptionInput[] | undefined> {
  const live = reviewedOffer(current, await tx.select().from(priceOptions).where(eq(priceOptions.offerId, current.id)));
  const pending = await pendingRevision(tx, current.id);
  const base = withChanges(live, pending?.changes);
  const proposed = {
    ...base,
    ...Object.fromEntries(REVIEWED_TEXT_FIELDS.filter((f) => change[f] !== undefined).map((f) => [f, change[f]])),
    price_options: change.price_options?.map((o) => ({ ...o, uuid: o.uuid?.toLowerCase() ?? null })) ?? base.price_options,
  };
  await saveRevision(tx, current.id, pending, reviewedChanges(live, proposed), by);
  if (!change.price_options) return undefined;
  const byId = new Map(live.price_options.map((o) => [o.uuid, o]));
  const now = change.price_options
    .filter((o) => o.uuid)
    .map((o) => {
      const on = byId.get(o.uuid!.toLowerCase());
      return on ? { ...o, title: on.title, actual_price: on.actual_price, regular_price: on.regular_price } : o;
    });
  if (now.length === 0)
    throw new HttpError(
      409,
      "Una oferta a la venta necesita al menos una de sus opciones de precio: las nuevas se venden cuando el equipo las apruebe.",
    );
  return now;
}

/** An offer that sold something is archived, not deleted: its coupons must stay redeemable. */
export async function deletePartnerOffer(db: Executor, scope: Scope, id: string): Promise<void> {
  await getPartnerOffer(db, scope, id);
  const [used] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sale_items WHERE offer_id = ${id}`);
  if (Number(used?.n) > 0) {
    throw new HttpError(409, `Esta oferta tiene ventas: archívala (estado «${OFFER_STATUS_LABELS.archived}») en lugar de borrarla.`);
  }
  await db.delete(offers).where(eq(offers.id, id));
}
