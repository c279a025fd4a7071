import { and, asc, eq, sql } from "drizzle-orm";
import type { PromoCodeRecord } from "#contract/partner-responses";
import { PromoCodeSchema, type PromoCodeInput } from "#contract/partner";
import type { Executor } from "#api/db/client";
import { isUniqueViolation } from "#api/db/errors";
import { offers, promoCodes } from "#api/db/schema";
import { HttpError, notFound, parseInput } from "#api/http";
import { inScope, type Scope } from "#api/services/access";

const select = { promo: promoCodes, offerTitle: offers.title, organizationId: offers.organizationId };

function toRecord({ promo: p, offerTitle }: { promo: typeof promoCodes.$inferSelect; offerTitle: string | null }): PromoCodeRecord {
  return {
    uuid: p.id,
    code: p.code,
    discount_type: p.discountType,
    discount_value: p.discountValue,
    valid_from: p.validFrom?.toISOString() ?? null,
    valid_until: p.validUntil?.toISOString() ?? null,
    max_uses: p.maxUses,
    per_customer_limit: p.perCustomerLimit,
    used_count: p.usedCount,
    offer: p.offerId,
    offer_title: offerTitle,
    created_at: p.createdAt.toISOString(),
  };
}

/** A partner's codes are the ones bound to its own offers; codes for the whole shop are staff's. */
function scopeWhere(scope: Scope) {
  return scope.orgs === null ? sql`true` : and(sql`${promoCodes.offerId} IS NOT NULL`, inScope(scope, offers.organizationId));
}

export async function listPromoCodes(db: Executor, scope: Scope, filter: { offer?: string; search?: string } = {}) {
  const rows = await db
    .select(select)
    .from(promoCodes)
    .leftJoin(offers, eq(offers.id, promoCodes.offerId))
    .where(
      and(
        scopeWhere(scope),
        filter.offer ? eq(promoCodes.offerId, filter.offer) : undefined,
        filter.search ? sql`${promoCodes.code} LIKE ${`%${filter.search.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
      ),
    )
    .orderBy(asc(promoCodes.code));
  return rows.map(toRecord);
}

export async function getPromoCode(db: Executor, scope: Scope, id: string): Promise<PromoCodeRecord> {
  const [row] = await db
    .select(select)
    .from(promoCodes)
    .leftJoin(offers, eq(offers.id, promoCodes.offerId))
    .where(and(eq(promoCodes.id, id), scopeWhere(scope)));
  if (!row) throw notFound("Código promocional no encontrado.");
  return toRecord(row);
}

async function checkOffer(db: Executor, scope: Scope, offerId: string | null | undefined) {
  if (offerId === undefined) return;
  if (offerId === null) {
    if (!scope.staff) throw new HttpError(400, "Elige una de tus ofertas: los códigos para toda la tienda los crea el equipo de ofertas.");
    return;
  }
  const [offer] = await db
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.id, offerId), inScope(scope, offers.organizationId)));
  if (!offer) throw notFound("Oferta no encontrada.");
}

function columns(input: Partial<PromoCodeInput>) {
  const c: Partial<typeof promoCodes.$inferInsert> = {};
  if (input.code !== undefined) c.code = input.code;
  if (input.discount_type !== undefined) c.discountType = input.discount_type;
  if (input.discount_value !== undefined) c.discountValue = input.discount_value;
  if (input.valid_from !== undefined) c.validFrom = input.valid_from ? new Date(input.valid_from) : null;
  // A bare date means "until the end of that day", as the demo codes do.
  if (input.valid_until !== undefined)
    c.validUntil = input.valid_until
      ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(input.valid_until) ? `${input.valid_until}T23:59:59Z` : input.valid_until)
      : null;
  if (input.max_uses !== undefined) c.maxUses = input.max_uses;
  if (input.per_customer_limit !== undefined) c.perCustomerLimit = input.per_customer_limit;
  if (input.offer !== undefined) c.offerId = input.offer;
  return c;
}

/**
 * Codes are unique across the shop. A code that is taken gets the same neutral answer whoever has
 * it (this business, another one, or the shop), so creating codes tells nobody about anyone else's.
 */
export const CODE_TAKEN = "Elige otro código: este no está disponible.";

async function uniqueCode<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, CODE_TAKEN, { errors: { code: [CODE_TAKEN] } });
    throw error;
  }
}

export async function createPromoCode(db: Executor, scope: Scope, input: PromoCodeInput): Promise<PromoCodeRecord> {
  await checkOffer(db, scope, input.offer);
  const [row] = await uniqueCode(() =>
    db
      .insert(promoCodes)
      .values({ ...columns(input), code: input.code, discountType: input.discount_type, discountValue: input.discount_value })
      .returning({ id: promoCodes.id }),
  );
  return getPromoCode(db, scope, row.id);
}

export async function updatePromoCode(db: Executor, scope: Scope, id: string, input: Partial<PromoCodeInput>): Promise<PromoCodeRecord> {
  const current = await getPromoCode(db, scope, id);
  await checkOffer(db, scope, input.offer);
  // A change of one field is checked against the others it depends on (a 150 on a percent code).
  parseInput(PromoCodeSchema, {
    code: current.code,
    discount_type: current.discount_type,
    discount_value: current.discount_value,
    valid_from: current.valid_from,
    valid_until: current.valid_until,
    offer: current.offer,
    ...input,
  });
  const c = columns(input);
  if (Object.keys(c).length) await uniqueCode(() => db.update(promoCodes).set(c).where(eq(promoCodes.id, id)));
  return getPromoCode(db, scope, id);
}

/** A code that was used stays, so past sales still explain their discount; end it instead. */
export async function deletePromoCode(db: Executor, scope: Scope, id: string): Promise<void> {
  const current = await getPromoCode(db, scope, id);
  if (current.used_count > 0) throw new HttpError(409, "Este código ya se ha usado: pon una fecha de fin en lugar de borrarlo.");
  await db.delete(promoCodes).where(eq(promoCodes.id, id));
}
