import { sql, type SQL } from "drizzle-orm";
import type { CategoryId } from "#rules/categories";
import { offers } from "#api/db/schema";

export type OfferFilters = {
  search?: string;
  category?: CategoryId;
  region?: string;
};

/** The catalogue's order: every listing, and a search within each of its tiers. */
export const ORDER = sql`${offers.rank}, ${offers.createdAt}, ${offers.id}`;

/** Status and the category/region filters, the part every listing and search shares. */
export function filterWhere(filters: OfferFilters): SQL {
  const parts: SQL[] = [sql`${offers.status} = 'active'`];
  if (filters.category) parts.push(sql`${offers.category} = ${filters.category}`);
  if (filters.region) parts.push(sql`${offers.province} = ${filters.region}`);
  return sql.join(parts, sql` AND `);
}

/** A whole number written into a statement's text (see listingIds in listings.ts); anything else is a bug here. */
export function wholeNumber(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`No es un número de filas: ${n}`);
  return sql.raw(String(n));
}
