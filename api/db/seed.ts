import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { query, type Database } from "./client";
import { offerImages, offers, organizations, priceOptions, promoCodes } from "./schema";
import { SEED_OFFERS, SEED_PROMO_CODES } from "./seed-data";

const SEED_LOCK_KEY = 7_262_002;

/** A stable uuid per demo record, so links to demo offers survive a fresh database. */
export function seedUuid(kind: string, key: string): string {
  const h = createHash("sha256").update(`ofertas:${kind}:${key}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Loads the demo catalogue when the database has no offers yet. Returns whether it did. */
export async function seedIfEmpty(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const existing = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM offers`);
    if (Number(existing[0]?.n) > 0) return false;

    const orgs = new Map<string, (typeof SEED_OFFERS)[number]["organization"]>();
    for (const offer of SEED_OFFERS) orgs.set(offer.organization.key, offer.organization);
    await tx.insert(organizations).values(
      [...orgs.values()].map((o) => ({
        id: seedUuid("organization", o.key),
        name: o.name,
        email: o.email,
        phone: o.phone,
        website: o.website,
      })),
    );
    await tx.insert(offers).values(
      SEED_OFFERS.map((o) => ({
        id: seedUuid("offer", o.key),
        organizationId: seedUuid("organization", o.organization.key),
        title: o.title,
        summary: o.summary,
        description: o.description,
        conditions: o.conditions,
        category: o.category,
        province: o.province,
        address: o.address,
        latitude: o.latitude,
        longitude: o.longitude,
        offerType: o.offer_type,
        validFrom: o.valid_from,
        validUntil: o.valid_until,
        rank: o.rank,
      })),
    );
    await tx.insert(offerImages).values(
      SEED_OFFERS.flatMap((o) =>
        o.images.map((img, position) => ({
          offerId: seedUuid("offer", o.key),
          imageUrl: img.file,
          cover: img.cover,
          logo: img.logo,
          width: img.width,
          height: img.height,
          alt: img.alt,
          position,
          // As an upload keeps its renditions: the picture itself first, then the smaller one.
          variants: img.small
            ? [
                { url: img.file, width: img.width, height: img.height },
                { url: img.small.file, width: img.small.width, height: img.small.height },
              ]
            : [],
        })),
      ),
    );
    await tx.insert(priceOptions).values(
      SEED_OFFERS.flatMap((o) =>
        o.price_options.map((p, position) => ({
          id: seedUuid("price-option", `${o.key}:${position}`),
          offerId: seedUuid("offer", o.key),
          title: p.title,
          actualPrice: p.actual_price,
          regularPrice: p.regular_price,
          available: p.available,
          perCustomer: p.per_customer,
          position,
        })),
      ),
    );
    if (SEED_PROMO_CODES.length) {
      await tx.insert(promoCodes).values(
        SEED_PROMO_CODES.map((p) => ({
          code: p.code,
          discountType: p.discount_type,
          discountValue: p.discount_value,
          offerId: p.offer_key ? seedUuid("offer", p.offer_key) : null,
          validFrom: p.valid_from ? new Date(p.valid_from) : null,
          validUntil: p.valid_until ? new Date(`${p.valid_until}T23:59:59Z`) : null,
          maxUses: p.max_uses,
          perCustomerLimit: p.per_customer_limit,
        })),
      );
    }
    return true;
  });
}
