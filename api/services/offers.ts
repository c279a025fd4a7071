import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { CategoryId } from "#lib/categories";
import type { OfferDetail, OfferSummary, PriceOption } from "#lib/schemas/offer";
import type { Executor } from "#api/db/client";
import { offerImages, offers, organizations, priceOptions } from "#api/db/schema";

export type OfferFilters = {
  search?: string;
  category?: CategoryId;
  region?: string;
};

/** Same folding as the search_text column: lower case, accents removed. */
export function foldForSearch(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

function whereFor(filters: OfferFilters): SQL | undefined {
  const parts: SQL[] = [eq(offers.status, "active")];
  if (filters.category) parts.push(eq(offers.category, filters.category));
  if (filters.region) parts.push(eq(offers.province, filters.region));
  const search = filters.search?.trim();
  if (search) {
    const pattern = `%${foldForSearch(search).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(sql`${offers.searchText} LIKE ${pattern}`);
  }
  return and(...parts);
}

const summaryColumns = {
  uuid: offers.id,
  title: offers.title,
  summary: offers.summary,
  category: offers.category,
  region: offers.province,
  address: offers.address,
  latitude: offers.latitude,
  longitude: offers.longitude,
  offer_type: offers.offerType,
  valid_from: offers.validFrom,
  valid_until: offers.validUntil,
  organization_uuid: organizations.id,
  organization_name: organizations.name,
};

type SummaryRow = {
  uuid: string;
  title: string;
  summary: string;
  category: string;
  region: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  offer_type: string;
  valid_from: string | null;
  valid_until: string | null;
  organization_uuid: string;
  organization_name: string;
};

/** Images and price options for many offers in two queries, not two per offer. */
async function attachChildren(db: Executor, rows: SummaryRow[]): Promise<OfferSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.uuid);
  const [images, options] = await Promise.all([
    db.select().from(offerImages).where(inArray(offerImages.offerId, ids)).orderBy(asc(offerImages.position)),
    db.select().from(priceOptions).where(inArray(priceOptions.offerId, ids)).orderBy(asc(priceOptions.position)),
  ]);
  return rows.map(({ organization_uuid, organization_name, ...row }) => ({
    ...row,
    organization: { uuid: organization_uuid, name: organization_name },
    // Cover first, so that images[0] is always the card picture.
    images: images
      .filter((i) => i.offerId === row.uuid)
      .sort((a, b) => Number(b.cover) - Number(a.cover))
      .map((i) => ({ image_url: i.imageUrl, cover: i.cover, logo: i.logo, width: i.width, height: i.height, alt: i.alt })),
    price_options: options.filter((o) => o.offerId === row.uuid).map(toPriceOption),
  }));
}

export function toPriceOption(o: typeof priceOptions.$inferSelect): PriceOption {
  return {
    uuid: o.id,
    title: o.title,
    actual_price: o.actualPrice,
    regular_price: o.regularPrice,
    available: o.available,
    per_customer: o.perCustomer,
  };
}

export async function listOffers(
  db: Executor,
  filters: OfferFilters,
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: OfferSummary[] }> {
  const where = whereFor(filters);
  const [countRow] = await db.select({ count: sql<number>`count(*)::int` }).from(offers).where(where);
  const rows = await db
    .select(summaryColumns)
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(where)
    .orderBy(asc(offers.rank), asc(offers.createdAt), asc(offers.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { count: countRow?.count ?? 0, results: await attachChildren(db, rows) };
}

export async function getOffer(db: Executor, id: string): Promise<OfferDetail | null> {
  const [row] = await db
    .select({
      ...summaryColumns,
      description: offers.description,
      conditions: offers.conditions,
      organization_email: organizations.email,
      organization_phone: organizations.phone,
      organization_website: organizations.website,
    })
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(and(eq(offers.id, id), eq(offers.status, "active")));
  if (!row) return null;
  const { description, conditions, organization_email, organization_phone, organization_website, ...summary } = row;
  const [offer] = await attachChildren(db, [summary]);
  return {
    ...offer,
    description,
    conditions,
    organization: {
      ...offer.organization,
      email: organization_email,
      phone: organization_phone,
      website: organization_website,
    },
  };
}

/** The offers asked for, in the order asked; unknown or inactive ones are skipped. */
export async function selectedOffers(db: Executor, ids: string[]): Promise<OfferSummary[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(summaryColumns)
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(and(inArray(offers.id, ids), eq(offers.status, "active")));
  const byId = new Map((await attachChildren(db, rows)).map((o) => [o.uuid, o]));
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}

/** Other active offers, nearest first (equirectangular distance is plenty at city scale). */
export async function nearbyOffers(db: Executor, id: string, limit: number): Promise<OfferSummary[] | null> {
  const [origin] = await db
    .select({ latitude: offers.latitude, longitude: offers.longitude })
    .from(offers)
    .where(and(eq(offers.id, id), eq(offers.status, "active")));
  if (!origin) return null;
  if (origin.latitude === null || origin.longitude === null) return [];
  const distance = sql`power(${offers.latitude} - ${origin.latitude}, 2) + power((${offers.longitude} - ${origin.longitude}) * cos(radians(${origin.latitude})), 2)`;
  const rows = await db
    .select(summaryColumns)
    .from(offers)
    .innerJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(and(eq(offers.status, "active"), sql`${offers.id} <> ${id}`, sql`${offers.latitude} IS NOT NULL`))
    .orderBy(distance, asc(offers.rank))
    .limit(limit);
  return attachChildren(db, rows);
}
