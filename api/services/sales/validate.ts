import { randomBytes } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { bestPromoPriceCents, formatCents, fromCents, promoPriceCents, toCents } from "#rules/prices";
import type { ValidateOrderResponse } from "#contract/sales";
import { ValidateOrderSchema } from "#contract/sales";
import { ticketsInWords, ticketsLeft } from "#rules/text";
import { CHECKOUT_SESSION_MINUTES } from "#rules/limits";
import { saleEndedMessage } from "#rules/sale-end";
import { onSaleNow } from "#api/services/offers/cards";
import type { Database } from "#api/db/client";
import { checkoutSessions, offers, priceOptions } from "#api/db/schema";
import { findPromoCodes, promoCodeProblem, type PromoRow } from "./promo-codes";
import { ticketsHeld, type StoredLine } from "./stock";
import { madridDate } from "#rules/dates";

/**
 * POST /sales/validate/: recomputes every price from the database and reports every problem at
 * once, so the buyer can fix the whole cart in one go.
 */
export async function validateOrder(
  db: Database,
  body: z.infer<typeof ValidateOrderSchema>,
): Promise<{ status: number; answer: ValidateOrderResponse }> {
  const { items, checkout_data } = body;
  const email = checkout_data.email;
  const errors: ValidateOrderResponse["errors"] = [];
  const optionIds = [...new Set(items.map((i) => i.offer_price_uuid.toLowerCase()))];
  const rows = await db
    .select({
      optionId: priceOptions.id,
      optionTitle: priceOptions.title,
      actualPrice: priceOptions.actualPrice,
      regularPrice: priceOptions.regularPrice,
      available: priceOptions.available,
      perCustomer: priceOptions.perCustomer,
      offerId: offers.id,
      title: offers.title,
      status: offers.status,
      validUntil: offers.validUntil,
      onSale: onSaleNow(sql`${offers.saleUntil}`).mapWith(Boolean),
    })
    .from(priceOptions)
    .innerJoin(offers, eq(offers.id, priceOptions.offerId))
    .where(inArray(priceOptions.id, optionIds));
  const byOption = new Map(rows.map((r) => [r.optionId, r]));

  const allCodes = [...new Set(items.flatMap((i) => i.promo_codes))];
  const promos = await findPromoCodes(db, allCodes);
  const usableCodes = new Map<string, PromoRow>();
  for (const code of allCodes) {
    const problem = await promoCodeProblem(db, promos.get(code), code, email);
    if (problem) errors.push({ error_text: problem, field: "promo_codes" });
    else usableCodes.set(code, promos.get(code)!);
  }

  const today = madridDate(new Date());
  const forPresent = new Set(checkout_data.for_present.map((id) => id.toLowerCase()));
  const gifts = new Map(checkout_data.gifts.map(({ offer_uuid, ...gift }) => [offer_uuid, gift]));
  const lines: StoredLine[] = [];
  const seenOptions = new Set<string>();
  for (const item of items) {
    const id = item.offer_price_uuid.toLowerCase();
    const row = byOption.get(id);
    if (row?.status === "ended") {
      errors.push({ error_text: saleEndedMessage(row.title), offer_price_uuid: id });
      continue;
    }
    if (!row || row.status !== "active") {
      errors.push({ error_text: "Una de las ofertas de tu carrito ya no está disponible. Quítala para continuar.", offer_price_uuid: id });
      continue;
    }
    if (seenOptions.has(id)) {
      errors.push({ error_text: `«${row.title}» aparece dos veces en el pedido.`, offer_price_uuid: id });
      continue;
    }
    seenOptions.add(id);
    if (row.validUntil && row.validUntil < today) {
      errors.push({ error_text: `La oferta «${row.title}» ha caducado.`, offer_price_uuid: id });
      continue;
    }
    if (!row.onSale) {
      errors.push({ error_text: saleEndedMessage(row.title), offer_price_uuid: id });
      continue;
    }
    if (row.available <= 0) {
      errors.push({ error_text: `«${row.title}» está agotada.`, offer_price_uuid: id });
      continue;
    }
    if (item.quantity > row.available) {
      errors.push({ error_text: `${ticketsLeft(row.available)} de «${row.title}».`, offer_price_uuid: id });
    }
    if (row.perCustomer !== null) {
      const held = await ticketsHeld(db, id, email);
      if (held + item.quantity > row.perCustomer) {
        const left = Math.max(0, row.perCustomer - held);
        errors.push({
          error_text:
            left === 0
              ? `Ya has comprado el máximo de ${ticketsInWords(row.perCustomer)} de «${row.title}» por cliente.`
              : `Puedes comprar como máximo ${ticketsInWords(left)} más de «${row.title}».`,
          offer_price_uuid: id,
        });
      }
    }
    const unitCents = toCents(row.actualPrice);
    if (toCents(item.saved_price) !== unitCents) {
      errors.push({ error_text: `El precio de «${row.title}» ha cambiado: ahora cuesta ${formatCents(unitCents)}.`, offer_price_uuid: id });
    }
    // Each line takes the lowest price among the codes that apply to its offer.
    const applicable = item.promo_codes.flatMap((c) => {
      const p = usableCodes.get(c);
      return p && (p.offerId === null || p.offerId === row.offerId) ? [p] : [];
    });
    const paidCents = bestPromoPriceCents(
      unitCents,
      applicable.map((p) => ({ discount_type: p.discountType as "percent", discount_value: p.discountValue })),
    );
    const winner =
      paidCents < unitCents
        ? applicable.find(
            (p) =>
              promoPriceCents(unitCents, { discount_type: p.discountType as "percent", discount_value: p.discountValue }) === paidCents,
          )
        : undefined;
    lines.push({
      offer_price_uuid: id,
      offer_uuid: row.offerId,
      title: row.title,
      option_title: row.optionTitle,
      quantity: item.quantity,
      unit_price: fromCents(unitCents),
      regular_unit_price: fromCents(Math.max(unitCents, toCents(row.regularPrice))),
      paid_unit_price: fromCents(paidCents),
      promo_code: winner?.code ?? null,
      line_total: fromCents(paidCents * item.quantity),
      for_present: forPresent.has(row.offerId) || gifts.has(row.offerId),
      gift: gifts.has(row.offerId) ? { ...gifts.get(row.offerId)!, sent_at: null } : null,
      slot_id: item.slot_id ?? null,
      unit_cents: unitCents,
      paid_unit_cents: paidCents,
    });
  }

  const totalCents = lines.reduce((sum, l) => sum + l.paid_unit_cents * l.quantity, 0);
  const salesData = {
    items: lines.map(({ unit_cents: _u, paid_unit_cents: _p, slot_id: _s, ...line }) => line),
    total: fromCents(totalCents),
    currency: "EUR" as const,
  };
  if (errors.length > 0) {
    return { status: 400, answer: { sales_data: salesData, checkout_data: { email }, errors } };
  }
  const token = randomBytes(24).toString("base64url");
  await db.insert(checkoutSessions).values({
    token,
    email,
    items: lines,
    checkoutData: checkout_data,
    totalCents,
    expiresAt: new Date(Date.now() + CHECKOUT_SESSION_MINUTES * 60_000),
  });
  return {
    status: 200,
    answer: { sales_data: salesData, checkout_data: { ...checkout_data, session_token: token, email }, errors: [] },
  };
}
