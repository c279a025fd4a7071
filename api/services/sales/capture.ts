import { and, eq, sql } from "drizzle-orm";
import type { Purchase } from "#contract/sales";
import { query, transactionWithRetry, type Database, type Executor } from "#api/db/client";
import { checkoutSessions, coupons, paymentTransactions, promoCodeUses, saleItems, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { queuePurchaseEvent } from "#api/analytics/outbox";
import type { PaymentProvider, PaymentState } from "#api/payments/types";
import { queueGiftMails } from "./gift-mails";
import { queueMail } from "#api/mail/outbox";
import { DEFAULT_FEEDBACK_DELAY_DAYS, queueFeedbackRequest } from "#api/services/feedback";
import { recordConsent } from "#api/services/subscriptions";
import { isUuid } from "#rules/uuid";
import { couponCode } from "./coupon-code";
import { purchaseOf } from "./purchase";
import { markRefundRequired } from "./refunds";
import { releaseSale } from "./release";
import { lockPriceOptions } from "./stock";
import { logger } from "#platform/logger.server";

export type CaptureOptions = {
  feedbackDelayDays?: number;
  /** The provider's id of the payment, from its webhook, for a transaction that never learned it. */
  providerRef?: string | null;
  /**
   * The provider's signed word that the money is taken (WebhookEvent.settled): a sale released
   * meanwhile (cancelled, declined) is revived like a lapsed reservation, or owes a refund.
   */
  settled?: boolean;
};

/**
 * What a late payment may still revive: a lapsed reservation, a sale whose provider never
 * answered, or, when the provider says the money is taken, one released before that word came.
 */
type Revivable = "expired" | "cancelled" | "declined";

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
  // Cancelled before the provider answered the create (no payment page): the buyer may still have
  // paid there, so it is taken like a lapsed reservation, with its tickets if they are left. So is
  // any released sale the provider says was charged after all (a Redsys authorisation arriving
  // after the buyer's «Cancelar», or after a denial on a retried card).
  const revivable: Revivable =
    sale.status === "cancelled" && (!tx.redirectUrl || options.settled)
      ? "cancelled"
      : sale.status === "declined" && options.settled
        ? "declined"
        : "expired";
  if ((sale.status === "declined" || sale.status === "cancelled") && revivable !== sale.status) {
    throw new HttpError(402, sale.status === "declined" ? "El pago ha sido rechazado." : "El pago se ha cancelado.");
  }
  const provider = providers.get(tx.provider);
  if (!provider) throw new HttpError(503, "El proveedor de pago de este pedido no está disponible.");

  if (!tx.providerRef && options.providerRef) {
    await db
      .update(paymentTransactions)
      .set({ providerRef: options.providerRef, updatedAt: new Date() })
      .where(eq(paymentTransactions.id, tx.id));
  }
  let state: PaymentState;
  try {
    state = await provider.capturePayment({
      providerRef: tx.providerRef ?? options.providerRef ?? tx.id,
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
      ["pending", revivable],
      `cobrado ${state.amountCents} ${state.currency}, pedido ${sale.totalCents} ${sale.currency}`,
    );
    throw new HttpError(409, "El importe cobrado no coincide con el pedido. Nuestro equipo lo revisará y te lo reembolsará.");
  }
  try {
    await markPaid(db, saleId, tx.id, revivable, options);
  } catch (error) {
    if (error instanceof SoldOutAfterExpiry) {
      // Recorded outside the rolled-back transaction, so the owed refund is never forgotten.
      await markRefundRequired(db, saleId, [revivable], "pagado después de caducar la reserva, con las entradas ya agotadas");
      throw new HttpError(409, "Tu reserva caducó y las entradas se han agotado. Te reembolsaremos el pago.");
    }
    throw error;
  }
  return purchaseOf(db, saleId);
}

class SoldOutAfterExpiry extends Error {}

async function markPaid(db: Database, saleId: string, transactionId: string, revivable: Revivable, options: CaptureOptions) {
  await transactionWithRetry(db, async (t) => {
    let won = await query(
      t,
      sql`UPDATE sales SET status = 'paid', paid_at = now() WHERE id = ${saleId} AND status = 'pending' RETURNING id`,
    );
    if (won.length === 0) {
      const [current] = await t.select({ status: sales.status }).from(sales).where(eq(sales.id, saleId)).for("update");
      if (current?.status !== revivable) return; // already paid by a concurrent capture
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
      won = await query(
        t,
        sql`UPDATE sales SET status = 'paid', paid_at = now() WHERE id = ${saleId} AND status = ${revivable} RETURNING id`,
      );
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
    await queueGiftMails(t, saleId, paid.email, items);
    for (const offerId of new Set(items.map((i) => i.offerId))) {
      await queueFeedbackRequest(t, { email: paid.email, offerId, delayDays: options.feedbackDelayDays ?? DEFAULT_FEEDBACK_DELAY_DAYS });
    }
    if ((paid.checkoutData as { mail_agreement?: boolean }).mail_agreement === true) {
      await recordConsent(t, { email: paid.email, source: `checkout:${saleId}` });
    }
  });
}
