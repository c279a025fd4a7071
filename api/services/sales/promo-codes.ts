/** Whether promo codes can be used now: the checks validate makes and the public code lookup. */
import { inArray, sql } from "drizzle-orm";
import { query, type Executor } from "#api/db/client";
import { promoCodes } from "#api/db/schema";
import { HttpError } from "#api/http";

export type PromoRow = typeof promoCodes.$inferSelect;

/** Why a promo code cannot be used now, in Spanish; null when it can. */
export async function promoCodeProblem(
  db: Executor,
  promo: PromoRow | undefined,
  code: string,
  email: string | null,
): Promise<string | null> {
  if (!promo) return `El código promocional «${code}» no existe.`;
  const now = Date.now();
  if (promo.validFrom && promo.validFrom.getTime() > now) return `El código promocional «${code}» todavía no está activo.`;
  if (promo.validUntil && promo.validUntil.getTime() < now) return `El código promocional «${code}» ha caducado.`;
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) return `El código promocional «${code}» se ha agotado.`;
  if (email && promo.perCustomerLimit !== null) {
    const used = await usesByEmail(db, promo.id, email);
    if (used >= promo.perCustomerLimit) return `Ya has usado el código promocional «${code}».`;
  }
  return null;
}

export async function usesByEmail(db: Executor, promoCodeId: string, email: string): Promise<number> {
  const rows = await query<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM promo_code_uses WHERE promo_code_id = ${promoCodeId} AND lower(email) = lower(${email})`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function findPromoCodes(db: Executor, codes: string[]): Promise<Map<string, PromoRow>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select().from(promoCodes).where(inArray(promoCodes.code, codes));
  return new Map(rows.map((r) => [r.code, r]));
}

export function promoCodeAnswer(promo: PromoRow) {
  return {
    promo_code: promo.code,
    discount_type: promo.discountType,
    discount_value: promo.discountValue,
    offer_uuid: promo.offerId,
  };
}

/** How many of these codes do not exist at all (each one a guess). */
export async function countUnknownPromoCodes(db: Executor, codes: string[]): Promise<number> {
  const distinct = [...new Set(codes)];
  const known = await findPromoCodes(db, distinct);
  return distinct.filter((c) => !known.has(c)).length;
}

/** POST /public/offers/apply-promocode/: the code's terms, or a Spanish reason it cannot be used. */
export async function checkPromoCode(db: Executor, code: string, email: string | null) {
  const promo = (await findPromoCodes(db, [code])).get(code);
  const problem = await promoCodeProblem(db, promo, code, email);
  if (problem || !promo) throw new HttpError(400, problem ?? "Código no válido.");
  return promoCodeAnswer(promo);
}
