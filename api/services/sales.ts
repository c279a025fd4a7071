import { randomBytes, randomInt } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { COUPON_ALPHABET, COUPON_CODE_LENGTH, formatCouponCode } from "#rules/coupons";
import { bestPromoPriceCents, formatCents, fromCents, promoPriceCents, toCents } from "#rules/prices";
import type { CheckoutData } from "#contract/checkout";
import type { Purchase, SaleLine, ValidateOrderResponse } from "#contract/sales";
import { ValidateOrderSchema } from "#contract/sales";
import { ticketsInWords, ticketsLeft } from "#rules/text";
import { isUuid } from "#rules/uuid";
import {
  CHECKOUT_SESSION_MINUTES,
  MAX_UNPAID_SALES_PER_ADDRESS,
  MAX_UNPAID_SALES_PER_EMAIL,
  RELEASED_SALE_RETENTION_DAYS,
} from "#rules/limits";
import type { z } from "zod";
import { query, transactionWithRetry, type Database, type Executor, type Transaction } from "#api/db/client";
import {
  checkoutSessions,
  coupons,
  offers,
  paymentTransactions,
  priceOptions,
  promoCodes,
  promoCodeUses,
  saleItems,
  sales,
} from "#api/db/schema";
import { HttpError } from "#api/http";
import { queuePurchaseEvent } from "#api/analytics/outbox";
import type { PaymentProvider, PaymentState } from "#api/payments/types";
import { queueMail } from "#api/mail/outbox";
import { DEFAULT_FEEDBACK_DELAY_DAYS, queueFeedbackRequest } from "#api/services/feedback";
import { recordConsent } from "#api/services/subscriptions";
import { logger } from "#platform/logger.server";

export type CaptureOptions = { feedbackDelayDays?: number };

type PromoRow = typeof promoCodes.$inferSelect;

/** Why a promo code cannot be used now, in Spanish; null when it can. */
async function promoCodeProblem(db: Executor, promo: PromoRow | undefined, code: string, email: string | null): Promise<string | null> {
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

async function usesByEmail(db: Executor, promoCodeId: string, email: string): Promise<number> {
  const rows = await query<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM promo_code_uses WHERE promo_code_id = ${promoCodeId} AND lower(email) = lower(${email})`,
  );
  return Number(rows[0]?.n ?? 0);
}

async function findPromoCodes(db: Executor, codes: string[]): Promise<Map<string, PromoRow>> {
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

/** Tickets of a price option that this email already holds, paid or reserved. */
async function ticketsHeld(db: Executor, priceOptionId: string, email: string): Promise<number> {
  const rows = await query<{ n: number }>(
    db,
    sql`
    SELECT coalesce(sum(si.quantity), 0)::int AS n
    FROM sale_items si JOIN sales s ON s.id = si.sale_id
    WHERE si.price_option_id = ${priceOptionId} AND lower(s.email) = lower(${email})
      AND s.status IN ('pending', 'paid')`,
  );
  return Number(rows[0]?.n ?? 0);
}

type StoredLine = SaleLine & { offer_uuid: string; slot_id: string | null; unit_cents: number; paid_unit_cents: number };

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
      available: priceOptions.available,
      perCustomer: priceOptions.perCustomer,
      offerId: offers.id,
      title: offers.title,
      status: offers.status,
      validUntil: offers.validUntil,
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

  const today = new Date().toISOString().slice(0, 10);
  const forPresent = new Set(checkout_data.for_present.map((id) => id.toLowerCase()));
  const lines: StoredLine[] = [];
  const seenOptions = new Set<string>();
  for (const item of items) {
    const id = item.offer_price_uuid.toLowerCase();
    const row = byOption.get(id);
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
      paid_unit_price: fromCents(paidCents),
      promo_code: winner?.code ?? null,
      line_total: fromCents(paidCents * item.quantity),
      for_present: forPresent.has(row.offerId),
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

export type PaymentUrls = { origin: string; apiOrigin: string };

/**
 * Who is buying: the account (a sale made while logged in belongs to it) and the client address
 * for the caps on unpaid reservations (null = this machine, not capped).
 */
export type Buyer = { clientAddress: string | null; userId: string | null };

export const TOO_MANY_UNPAID_FROM_ADDRESS =
  "Hay demasiadas reservas sin pagar desde tu conexión. Paga o cancela alguna, o espera unos minutos a que caduquen.";

/**
 * POST /sales/create/: turns a validated checkout into a pending sale. Tickets and promo-code uses
 * are taken in the same transaction as the sale is written, with conditional updates, so two buyers
 * can never both get the last ticket. The provider is called after the commit: a slow provider must
 * not hold row locks.
 */
export async function createSale(
  db: Database,
  provider: PaymentProvider,
  sessionToken: string,
  urls: PaymentUrls,
  reservationMinutes: number,
  buyer: Buyer = { clientAddress: null, userId: null },
) {
  const reserved = await transactionWithRetry(db, async (tx) => {
    const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.token, sessionToken)).for("update");
    if (!session || session.expiresAt.getTime() < Date.now()) {
      throw new HttpError(400, "La sesión de pago ha caducado. Revisa tu carrito y vuelve a continuar.");
    }
    const [existing] = await tx.select().from(sales).where(eq(sales.sessionToken, sessionToken));
    if (existing) return { saleId: existing.id, existing: true as const };
    await limitUnpaidSales(tx, session.email, buyer.clientAddress);

    const lines = session.items as StoredLine[];
    const checkoutData = session.checkoutData as CheckoutData;
    // Stock rows, then promo-code rows, each in id order: two carts holding the same options in a
    // different order then queue one behind the other instead of deadlocking.
    await lockPriceOptions(
      tx,
      lines.map((l) => l.offer_price_uuid),
    );
    const usedCodes = [...new Set(lines.flatMap((l) => (l.promo_code ? [l.promo_code] : [])))];
    if (usedCodes.length) {
      await tx.execute(
        sql`SELECT id FROM promo_codes WHERE code IN (${sql.join(
          usedCodes.map((c) => sql`${c}`),
          sql`, `,
        )}) ORDER BY id FOR UPDATE`,
      );
    }
    for (const line of lines) {
      const taken = await query<{ available: number }>(
        tx,
        sql`
        UPDATE price_options SET available = available - ${line.quantity}
        WHERE id = ${line.offer_price_uuid} AND available >= ${line.quantity}
        RETURNING available`,
      );
      if (taken.length === 0) {
        throw new HttpError(409, `Se han agotado las entradas de «${line.title}» mientras comprabas.`);
      }
      // The stock row is locked by the update above, so this count cannot race another buyer.
      const [option] = await tx
        .select({ perCustomer: priceOptions.perCustomer })
        .from(priceOptions)
        .where(eq(priceOptions.id, line.offer_price_uuid));
      if (option?.perCustomer != null) {
        const held = await ticketsHeld(tx, line.offer_price_uuid, session.email);
        if (held + line.quantity > option.perCustomer) {
          throw new HttpError(409, `Has superado el máximo de ${ticketsInWords(option.perCustomer)} por cliente de «${line.title}».`);
        }
      }
    }

    const [sale] = await tx
      .insert(sales)
      .values({
        sessionToken,
        email: session.email,
        userId: buyer.userId,
        status: "pending",
        provider: provider.name,
        totalCents: session.totalCents,
        checkoutData,
        expiresAt: new Date(Date.now() + reservationMinutes * 60_000),
        clientAddress: buyer.clientAddress,
      })
      .returning({ id: sales.id });
    await tx.insert(saleItems).values(
      lines.map((l) => ({
        saleId: sale.id,
        offerId: l.offer_uuid,
        priceOptionId: l.offer_price_uuid,
        quantity: l.quantity,
        unitPriceCents: l.unit_cents,
        paidUnitCents: l.paid_unit_cents,
        promoCode: l.promo_code,
        slotId: l.slot_id,
        forPresent: l.for_present,
      })),
    );

    for (const code of usedCodes) {
      const taken = await query<{ id: string; per_customer_limit: number | null }>(
        tx,
        sql`
        UPDATE promo_codes SET used_count = used_count + 1
        WHERE code = ${code}
          AND (max_uses IS NULL OR used_count < max_uses)
          AND (valid_from IS NULL OR valid_from <= now())
          AND (valid_until IS NULL OR valid_until >= now())
        RETURNING id, per_customer_limit`,
      );
      const promo = taken[0];
      if (!promo) throw new HttpError(409, `El código promocional «${code}» ya no está disponible. Quítalo y vuelve a intentarlo.`);
      if (promo.per_customer_limit !== null && (await usesByEmail(tx, promo.id, session.email)) >= promo.per_customer_limit) {
        throw new HttpError(409, `Ya has usado el código promocional «${code}».`);
      }
      await tx.insert(promoCodeUses).values({ promoCodeId: promo.id, saleId: sale.id, email: session.email });
    }

    const [transaction] = await tx
      .insert(paymentTransactions)
      .values({
        saleId: sale.id,
        provider: provider.name,
        amountCents: session.totalCents,
        status: "created",
        returnUrl: "",
        cancelUrl: "",
      })
      .returning({ id: paymentTransactions.id });
    return { saleId: sale.id, transactionId: transaction.id, existing: false as const, session, checkoutData, lines };
  });

  if (reserved.existing) return existingPayment(db, reserved.saleId, provider);

  const { saleId, transactionId, checkoutData, lines, session } = reserved;
  const returnUrl = `${urls.origin}/order/success?transaction_id=${transactionId}`;
  const cancelUrl = `${urls.origin}/order/cancel?transaction_id=${transactionId}`;
  try {
    const payment = await provider.createPayment({
      saleId,
      transactionId,
      amountCents: session.totalCents,
      currency: "EUR",
      description: lines
        .map((l) => `${l.quantity} × ${l.title}`)
        .join(", ")
        .slice(0, 120),
      email: session.email,
      fullName: checkoutData.user_fullname,
      returnUrl,
      cancelUrl,
      webhookUrl: `${urls.apiOrigin}/api/v0/${provider.name}/webhook/`,
    });
    await db
      .update(paymentTransactions)
      .set({ providerRef: payment.providerRef, redirectUrl: payment.redirectUrl, returnUrl, cancelUrl, updatedAt: new Date() })
      .where(eq(paymentTransactions.id, transactionId));
    return {
      payment: {
        sale_id: saleId,
        transaction_id: transactionId,
        provider: provider.name,
        flow: payment.flow,
        redirect_url: payment.redirectUrl,
        provider_ref: payment.providerRef,
      },
    };
  } catch (error) {
    await releaseSale(db, saleId, "cancelled");
    throw new HttpError(502, "No se ha podido iniciar el pago con el proveedor. Inténtalo de nuevo en unos minutos.", {
      cause: error instanceof Error ? error.message : undefined,
    });
  }
}

/**
 * Hoarding caps, checked inside createSale's transaction. The advisory locks make concurrent
 * creates of one email or one address count one after the other (email first, then address,
 * always, so two of them never wait on each other in a cycle).
 */
async function limitUnpaidSales(tx: Transaction, email: string, clientAddress: string | null) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${"sales-email:" + email.toLowerCase()}))`);
  if (clientAddress) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${"sales-address:" + clientAddress}))`);
    const [row] = await query<{ n: number }>(
      tx,
      sql`
      SELECT count(*)::int AS n FROM sales WHERE client_address = ${clientAddress} AND status = 'pending'`,
    );
    if (Number(row?.n ?? 0) >= MAX_UNPAID_SALES_PER_ADDRESS) throw new HttpError(429, TOO_MANY_UNPAID_FROM_ADDRESS);
  }
  // Over the per-email cap the oldest unpaid orders make room, rather than the buyer being refused:
  // anyone can type a buyer's email, so refusing would let them lock that buyer out. They are
  // marked expired, not cancelled, so a payment that still arrives for one takes its tickets again.
  const oldest = await query<{ id: string }>(
    tx,
    sql`
    SELECT id FROM sales
    WHERE lower(email) = lower(${email}) AND status = 'pending'
    ORDER BY created_at DESC, id
    OFFSET ${MAX_UNPAID_SALES_PER_EMAIL - 1}
    FOR UPDATE`,
  );
  if (oldest.length === 0) return;
  const ids = oldest.map((r) => r.id);
  await tx.execute(
    sql`UPDATE sales SET status = 'expired' WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  await giveBack(tx, ids, { keepApproved: true });
}

/**
 * The answer for a session that already has its sale (a double click, a retry). The request that
 * created the sale may still be waiting for the provider's redirect URL: wait for it a little
 * rather than telling the buyer that an order being set up is no longer payable.
 */
async function existingPayment(db: Database, saleId: string, provider: PaymentProvider, waitMs = 15_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await db
      .select({ sale: sales, tx: paymentTransactions })
      .from(sales)
      .innerJoin(paymentTransactions, eq(paymentTransactions.saleId, sales.id))
      .where(eq(sales.id, saleId));
    if (row && row.sale.status === "pending" && !row.tx.redirectUrl && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (!row || row.sale.status !== "pending" || !row.tx.redirectUrl) {
      throw new HttpError(409, "Este pedido ya no está pendiente de pago. Revisa tu carrito.");
    }
    const flow = row.tx.provider === provider.name ? provider.flow : "hosted";
    return {
      payment: {
        sale_id: saleId,
        transaction_id: row.tx.id,
        provider: row.tx.provider,
        flow,
        redirect_url: row.tx.redirectUrl,
        provider_ref: row.tx.providerRef,
      },
    };
  }
}

/**
 * Gives back the tickets and promo-code uses of a pending sale. The status change is the guard:
 * only the caller whose update moved the sale out of "pending" releases it, so a sweep on several
 * processes, a cancel and a webhook can race without giving stock back twice.
 */
export async function releaseSale(db: Database, saleId: string, status: "cancelled" | "declined" | "expired"): Promise<boolean> {
  return transactionWithRetry(db, async (tx: Transaction) => {
    const moved = await query(tx, sql`UPDATE sales SET status = ${status} WHERE id = ${saleId} AND status = 'pending' RETURNING id`);
    if (moved.length === 0) return false;
    await giveBack(tx, [saleId]);
    return true;
  });
}

/**
 * keepApproved: the sweep leaves approved payments alone. The buyer has paid (for the sandbox the
 * transaction row is the bank), so a late capture must still find it and take the tickets again.
 */
async function giveBack(tx: Executor, saleIds: string[], { keepApproved = false } = {}) {
  if (saleIds.length === 0) return;
  const ids = sql.join(
    saleIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  // Same lock order as createSale: stock rows by id, then promo codes by id.
  await tx.execute(
    sql`SELECT id FROM price_options WHERE id IN (SELECT price_option_id FROM sale_items WHERE sale_id IN (${ids})) ORDER BY id FOR UPDATE`,
  );
  await tx.execute(
    sql`SELECT id FROM promo_codes WHERE id IN (SELECT promo_code_id FROM promo_code_uses WHERE sale_id IN (${ids})) ORDER BY id FOR UPDATE`,
  );
  await tx.execute(sql`
    UPDATE price_options p SET available = p.available + t.quantity
    FROM (SELECT price_option_id, sum(quantity)::int AS quantity FROM sale_items WHERE sale_id IN (${ids}) GROUP BY price_option_id) t
    WHERE p.id = t.price_option_id`);
  await tx.execute(sql`
    UPDATE promo_codes c SET used_count = greatest(0, c.used_count - t.n)
    FROM (SELECT promo_code_id, count(*)::int AS n FROM promo_code_uses WHERE sale_id IN (${ids}) GROUP BY promo_code_id) t
    WHERE c.id = t.promo_code_id`);
  await tx.execute(sql`DELETE FROM promo_code_uses WHERE sale_id IN (${ids})`);
  const open = keepApproved ? sql`('created')` : sql`('created', 'approved')`;
  await tx.execute(
    sql`UPDATE payment_transactions SET status = 'cancelled', updated_at = now() WHERE sale_id IN (${ids}) AND status IN ${open}`,
  );
}

/** Expires unpaid reservations; SKIP LOCKED lets several processes sweep without waiting on each other. */
export async function sweepExpiredReservations(db: Database): Promise<number> {
  return transactionWithRetry(db, async (tx) => {
    const expired = await query<{ id: string }>(
      tx,
      sql`
      UPDATE sales SET status = 'expired'
      WHERE id IN (
        SELECT id FROM sales WHERE status = 'pending' AND expires_at < now()
        ORDER BY expires_at LIMIT 200 FOR UPDATE SKIP LOCKED
      )
      RETURNING id`,
    );
    await giveBack(
      tx,
      expired.map((r) => r.id),
      { keepApproved: true },
    );
    return expired.length;
  });
}

/**
 * Deletes what nobody needs any more, a batch at a time: checkout sessions past their expiry
 * (validate writes one per "Continuar"), and cancelled, declined or expired sales older than the
 * retention period, unless the provider approved their payment (a late capture still needs them).
 */
export async function purgeStaleCheckoutData(db: Database, batch = 1000): Promise<{ sessions: number; sales: number }> {
  const sessions = await query(
    db,
    sql`
    DELETE FROM checkout_sessions WHERE token IN (
      SELECT token FROM checkout_sessions WHERE expires_at < now() LIMIT ${batch}
    ) RETURNING token`,
  );
  const removed = await query(
    db,
    sql`
    DELETE FROM sales WHERE id IN (
      SELECT s.id FROM sales s
      WHERE s.status IN ('cancelled', 'declined', 'expired')
        AND s.created_at < now() - make_interval(days => ${RELEASED_SALE_RETENTION_DAYS})
        AND NOT EXISTS (SELECT 1 FROM payment_transactions t WHERE t.sale_id = s.id AND t.status IN ('approved', 'captured'))
      LIMIT ${batch}
    ) RETURNING id`,
  );
  return { sessions: sessions.length, sales: removed.length };
}

export function startReservationSweep(db: Database, everyMs = 60_000): () => void {
  const timer = setInterval(() => {
    sweepExpiredReservations(db)
      .then(() => purgeStaleCheckoutData(db))
      .catch((error: unknown) => logger.error({ err: error }, "Barrido de reservas fallido."));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function couponCode(): string {
  return formatCouponCode(Array.from({ length: COUPON_CODE_LENGTH }, () => COUPON_ALPHABET[randomInt(COUPON_ALPHABET.length)]).join(""));
}

export async function findTransaction(db: Executor, by: { transactionId?: string | null; provider?: string; providerRef?: string | null }) {
  // Webhooks echo whatever reference the provider holds; one that is not our uuid is not ours
  // (comparing it with the uuid column would be a database error, a 500 the provider retries).
  if (by.transactionId && isUuid(by.transactionId)) {
    const [tx] = await db.select().from(paymentTransactions).where(eq(paymentTransactions.id, by.transactionId));
    return tx ?? null;
  }
  if (by.provider && by.providerRef) {
    const [tx] = await db
      .select()
      .from(paymentTransactions)
      .where(and(eq(paymentTransactions.provider, by.provider), eq(paymentTransactions.providerRef, by.providerRef)));
    return tx ?? null;
  }
  return null;
}

/**
 * POST /sales/capture/{id}/: asks the provider, checks amount and currency against the sale, and
 * marks it paid exactly once. The return redirect, the webhook and a reload can all arrive at the
 * same time; the conditional update decides which one issues the coupons, the others read them.
 */
export async function captureSale(
  db: Database,
  providers: Map<string, PaymentProvider>,
  saleId: string,
  transactionId: string,
  options: CaptureOptions = {},
): Promise<Purchase> {
  const tx = await findTransaction(db, { transactionId });
  if (!tx || tx.saleId !== saleId) throw new HttpError(404, "No hemos encontrado ese pago.");
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
  if (!sale) throw new HttpError(404, "No hemos encontrado ese pedido.");
  if (sale.status === "paid") return purchaseOf(db, saleId);
  if (sale.status === "declined" || sale.status === "cancelled") {
    throw new HttpError(402, sale.status === "declined" ? "El pago ha sido rechazado." : "El pago se ha cancelado.");
  }
  const provider = providers.get(tx.provider);
  if (!provider) throw new HttpError(503, "El proveedor de pago de este pedido no está disponible.");

  let state: PaymentState;
  try {
    state = await provider.capturePayment({
      providerRef: tx.providerRef ?? tx.id,
      transactionId: tx.id,
      amountCents: tx.amountCents,
      currency: tx.currency,
    });
  } catch {
    throw new HttpError(502, "No hemos podido confirmar el pago con el proveedor. Vuelve a cargar la página en unos segundos.");
  }
  if (state.status === "declined") {
    await db.update(paymentTransactions).set({ status: "declined", updatedAt: new Date() }).where(eq(paymentTransactions.id, tx.id));
    await releaseSale(db, saleId, "declined");
    throw new HttpError(402, "El pago ha sido rechazado.");
  }
  if (state.unreadable) logger.warn({ saleId, reason: state.unreadable }, "Venta sigue pendiente.");
  if (state.status !== "captured") throw new HttpError(409, "El pago todavía no se ha completado.");
  if (state.amountCents !== sale.totalCents || state.currency.toUpperCase() !== sale.currency) {
    await markRefundRequired(
      db,
      saleId,
      ["pending", "expired"],
      `cobrado ${state.amountCents} ${state.currency}, pedido ${sale.totalCents} ${sale.currency}`,
    );
    throw new HttpError(409, "El importe cobrado no coincide con el pedido. Nuestro equipo lo revisará y te lo reembolsará.");
  }
  try {
    await markPaid(db, saleId, tx.id, options);
  } catch (error) {
    if (error instanceof SoldOutAfterExpiry) {
      // Recorded outside the rolled-back transaction, so the owed refund is never forgotten.
      await markRefundRequired(db, saleId, ["expired"], "pagado después de caducar la reserva, con las entradas ya agotadas");
      throw new HttpError(409, "Tu reserva caducó y las entradas se han agotado. Te reembolsaremos el pago.");
    }
    throw error;
  }
  return purchaseOf(db, saleId);
}

class SoldOutAfterExpiry extends Error {}

/**
 * The buyer paid but cannot have the tickets (wrong amount, or sold out after the reservation
 * lapsed): the sale owes a refund. It holds no tickets from then on (a pending one gives them back
 * in the same transaction) and is logged; staff find them with refundRequiredSales.
 */
async function markRefundRequired(db: Database, saleId: string, from: ("pending" | "expired")[], reason: string) {
  const moved = await transactionWithRetry(db, async (tx) => {
    const [row] = await query<{ id: string; was: string }>(
      tx,
      sql`
      UPDATE sales s SET status = 'refund_required'
      FROM (SELECT id, status AS was FROM sales WHERE id = ${saleId} FOR UPDATE) old
      WHERE s.id = old.id AND old.was IN (${sql.join(
        from.map((f) => sql`${f}`),
        sql`, `,
      )})
      RETURNING s.id, old.was`,
    );
    // An expired sale already gave its tickets back in the sweep; a pending one does it now.
    if (row?.was === "pending") await giveBack(tx, [saleId], { keepApproved: true });
    return Boolean(row);
  });
  if (moved) logger.warn({ saleId, reason }, "Reembolso pendiente.");
}

export type RefundRequiredSale = {
  sale_id: string;
  email: string;
  total: string;
  currency: string;
  provider: string;
  created_at: string;
  paid_at: string | null;
};

/** A page of the sales that owe the buyer a refund, newest first, and how many there are: the staff's to-do list until the back office exists. */
export async function refundRequiredSales(
  db: Executor,
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: RefundRequiredSale[] }> {
  const owing = eq(sales.status, "refund_required");
  const [[count], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(sales)
      .where(owing),
    db
      .select()
      .from(sales)
      .where(owing)
      .orderBy(desc(sales.createdAt), sales.id)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  const results = rows.map((s) => ({
    sale_id: s.id,
    email: s.email,
    total: fromCents(s.totalCents),
    currency: s.currency,
    provider: s.provider,
    created_at: s.createdAt.toISOString(),
    paid_at: s.paidAt ? s.paidAt.toISOString() : null,
  }));
  return { count: Number(count?.n ?? 0), results };
}

/** Row locks on these price options, always in id order (see createSale). */
async function lockPriceOptions(tx: Executor, optionIds: string[]) {
  const ids = [...new Set(optionIds)].sort();
  if (ids.length === 0) return;
  await tx.execute(
    sql`SELECT id FROM price_options WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) ORDER BY id FOR UPDATE`,
  );
}

async function markPaid(db: Database, saleId: string, transactionId: string, options: CaptureOptions) {
  await transactionWithRetry(db, async (t) => {
    let won = await query(
      t,
      sql`UPDATE sales SET status = 'paid', paid_at = now() WHERE id = ${saleId} AND status = 'pending' RETURNING id`,
    );
    if (won.length === 0) {
      const [current] = await t.select({ status: sales.status }).from(sales).where(eq(sales.id, saleId)).for("update");
      if (current?.status !== "expired") return; // already paid by a concurrent capture
      // Paid after the reservation lapsed: take the tickets again if they are still there.
      const items = await t.select().from(saleItems).where(eq(saleItems.saleId, saleId)).orderBy(saleItems.priceOptionId);
      await lockPriceOptions(
        t,
        items.map((i) => i.priceOptionId),
      );
      for (const item of items) {
        const taken = await query(
          t,
          sql`UPDATE price_options SET available = available - ${item.quantity} WHERE id = ${item.priceOptionId} AND available >= ${item.quantity} RETURNING id`,
        );
        if (taken.length === 0) throw new SoldOutAfterExpiry();
      }
      // The buyer paid the discounted price: the promo codes count as used again, limits or not.
      const usedCodes = [...new Set(items.flatMap((i) => (i.promoCode ? [i.promoCode] : [])))];
      for (const code of usedCodes) {
        const [promo] = await query<{ id: string }>(
          t,
          sql`UPDATE promo_codes SET used_count = used_count + 1 WHERE code = ${code} RETURNING id`,
        );
        const [sale] = await t.select({ email: sales.email }).from(sales).where(eq(sales.id, saleId));
        if (promo && sale) await t.insert(promoCodeUses).values({ promoCodeId: promo.id, saleId, email: sale.email }).onConflictDoNothing();
      }
      won = await query(t, sql`UPDATE sales SET status = 'paid', paid_at = now() WHERE id = ${saleId} AND status = 'expired' RETURNING id`);
      if (won.length === 0) return;
    }
    await t.update(paymentTransactions).set({ status: "captured", updatedAt: new Date() }).where(eq(paymentTransactions.id, transactionId));
    const items = await t.select().from(saleItems).where(eq(saleItems.saleId, saleId));
    const codes = items.flatMap((item) => Array.from({ length: item.quantity }, () => ({ saleItemId: item.id, code: couponCode() })));
    if (codes.length) await t.insert(coupons).values(codes);
    await queuePurchaseEvent(t, saleId); // sent by api/analytics/delivery.ts, only with the buyer's consent
    const [paid] = await t
      .select({ s: sales.sessionToken, email: sales.email, checkoutData: sales.checkoutData })
      .from(sales)
      .where(eq(sales.id, saleId));
    await t.delete(checkoutSessions).where(eq(checkoutSessions.token, paid.s));
    // Mail is written in this transaction: it goes out if and only if the sale is paid.
    await queueMail(t, { kind: "purchase-confirmation", to: paid.email, dedupeKey: `purchase:${saleId}`, data: { sale_id: saleId } });
    for (const offerId of new Set(items.map((i) => i.offerId))) {
      await queueFeedbackRequest(t, { email: paid.email, offerId, delayDays: options.feedbackDelayDays ?? DEFAULT_FEEDBACK_DELAY_DAYS });
    }
    if ((paid.checkoutData as { mail_agreement?: boolean }).mail_agreement === true) {
      await recordConsent(t, { email: paid.email, source: `checkout:${saleId}` });
    }
  });
}

export async function purchaseOf(db: Executor, saleId: string): Promise<Purchase> {
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
  if (!sale) throw new HttpError(404, "No hemos encontrado ese pedido.");
  const items = await db
    .select({
      item: saleItems,
      title: offers.title,
      optionTitle: priceOptions.title,
      address: offers.address,
      conditions: offers.conditions,
      validFrom: offers.validFrom,
      validUntil: offers.validUntil,
    })
    .from(saleItems)
    .innerJoin(offers, eq(offers.id, saleItems.offerId))
    .innerJoin(priceOptions, eq(priceOptions.id, saleItems.priceOptionId))
    .where(eq(saleItems.saleId, saleId));
  const codes = items.length
    ? await db
        .select()
        .from(coupons)
        .where(
          inArray(
            coupons.saleItemId,
            items.map((i) => i.item.id),
          ),
        )
    : [];
  return {
    sale_id: sale.id,
    status: sale.status,
    email: sale.email,
    total: fromCents(sale.totalCents),
    currency: sale.currency,
    paid_at: sale.paidAt?.toISOString() ?? null,
    items: items.map(({ item, title, optionTitle, address, conditions, validFrom, validUntil }) => ({
      offer_uuid: item.offerId,
      title,
      option_title: optionTitle,
      quantity: item.quantity,
      paid_unit_price: fromCents(item.paidUnitCents),
      for_present: item.forPresent,
      coupons: codes
        .filter((c) => c.saleItemId === item.id)
        .map((c) => c.code)
        .sort(),
      address,
      conditions,
      valid_from: validFrom,
      valid_until: validUntil,
    })),
  };
}
