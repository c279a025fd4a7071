import type { RefundRequiredSale } from "#contract/partner-responses";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { fromCents } from "#rules/prices";
import { query, transactionWithRetry, type Database, type Executor } from "#api/db/client";
import { isUniqueViolation } from "#api/db/errors";
import { paymentTransactions, saleRefunds, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { PaymentProviderUnreachable, type PaymentProvider, type RefundResult } from "#api/payments/types";
import { giveBack } from "./stock";
import { logger } from "#platform/logger.server";

/**
 * The buyer paid but cannot have the tickets (wrong amount, or sold out after the reservation
 * lapsed): the sale owes a refund. It holds no tickets from then on (a pending one gives them back
 * in the same transaction) and is logged; staff find them with refundRequiredSales.
 */
export async function markRefundRequired(
  db: Database,
  saleId: string,
  from: ("pending" | "expired" | "cancelled" | "declined")[],
  reason: string,
) {
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
    // An expired or cancelled sale already gave its tickets back; a pending one does it now.
    if (row?.was === "pending") await giveBack(tx, [saleId], { keepApproved: true });
    return Boolean(row);
  });
  if (moved) logger.warn({ saleId, reason }, "Reembolso pendiente.");
}

/**
 * A page of the sales that owe the buyer a refund, newest first, and how many there are: the
 * staff's to-do list. `refundable`: the providers that give money back from the shop
 * (PaymentProvider.refundPayment); each sale says its last attempt, if any.
 */
export async function refundRequiredSales(
  db: Executor,
  page: { page: number; pageSize: number },
  refundable: ReadonlySet<string> = new Set(),
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
  const attempts = rows.length
    ? await db
        .select()
        .from(saleRefunds)
        .where(
          inArray(
            saleRefunds.saleId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(saleRefunds.createdAt))
    : [];
  const results = rows.map((s) => {
    const last = attempts.find((a) => a.saleId === s.id);
    return {
      sale_id: s.id,
      email: s.email,
      total: fromCents(s.totalCents),
      currency: s.currency,
      provider: s.provider,
      created_at: s.createdAt.toISOString(),
      paid_at: s.paidAt ? s.paidAt.toISOString() : null,
      can_refund: refundable.has(s.provider),
      last_attempt: last ? { status: last.status as RefundAttempt["status"], detail: last.detail, at: last.updatedAt.toISOString() } : null,
    };
  });
  return { count: Number(count?.n ?? 0), results };
}

/** What a refund attempt ended in, for the staff list. */
export type RefundAttempt = { status: "pending" | "refunded" | "refused" | "unknown"; detail: string | null; at: string };

const REFUND_CODES: Record<string, string> = {
  SIS0057: "el importe supera lo que queda por devolver: puede que ya esté devuelto, compruébalo en el panel de Redsys",
  SIS0042: "la firma no es válida: revisa REDSYS_SECRET_KEY",
};

/** A sale and the payment that took its money, as a refund needs them. */
async function saleWithPayment(db: Executor, saleId: string) {
  const [row] = await db
    .select({ sale: sales, tx: paymentTransactions })
    .from(sales)
    .innerJoin(paymentTransactions, eq(paymentTransactions.saleId, sales.id))
    .where(eq(sales.id, saleId))
    .orderBy(desc(paymentTransactions.updatedAt))
    .limit(1);
  if (!row) throw new HttpError(404, "No hemos encontrado esa venta.");
  return row;
}

/**
 * Gives a sale's money back through the provider that took it, once. The request is written
 * before the provider is asked (one in flight per sale, by a unique index), then closed with what
 * the provider said; an answer that never came leaves it «unknown», and staff check the
 * provider's panel before asking again. `amountCents` null: everything captured. The staff page
 * refunds sales that owe the buyer their money (refund_required); a buyer's request for one
 * coupon refunds that coupon's price (refundCouponPrice).
 */
export async function refundThroughProvider(
  db: Database,
  providers: Map<string, PaymentProvider>,
  saleId: string,
  { amountCents = null, reason, requestedBy = null }: { amountCents?: number | null; reason: string; requestedBy?: string | null },
): Promise<{ refundedCents: number; provider: string }> {
  const { sale, tx } = await saleWithPayment(db, saleId);
  if (sale.status === "refunded") throw new HttpError(409, "Esta venta ya está reembolsada.");
  if (sale.status !== "refund_required") throw new HttpError(409, "Esta venta no tiene un reembolso pendiente.");
  return giveMoneyBack(db, providers, { sale, tx }, "refund_required", { amountCents, reason, requestedBy }, async (t) => {
    await t
      .update(sales)
      .set({ status: "refunded" })
      .where(and(eq(sales.id, saleId), eq(sales.status, "refund_required")));
  });
}

/**
 * Part of a paid sale's money back (one coupon's price) through its provider, by the same steps
 * as refundThroughProvider; `settle` runs in the transaction that records the provider's yes.
 */
export async function refundCouponPrice(
  db: Database,
  providers: Map<string, PaymentProvider>,
  saleId: string,
  request: { amountCents: number; reason: string; requestedBy: string | null },
  settle: (t: Executor, refundedCents: number) => Promise<void>,
): Promise<{ refundedCents: number; provider: string }> {
  const { sale, tx } = await saleWithPayment(db, saleId);
  if (sale.status !== "paid") throw new HttpError(409, "Este pedido ya no está pagado: no se puede devolver una parte.");
  return giveMoneyBack(db, providers, { sale, tx }, "paid", request, settle);
}

async function giveMoneyBack(
  db: Database,
  providers: Map<string, PaymentProvider>,
  { sale, tx }: Awaited<ReturnType<typeof saleWithPayment>>,
  /** The status the sale must still have under its lock, as its caller read it. */
  expected: "refund_required" | "paid",
  { amountCents, reason, requestedBy }: { amountCents: number | null; reason: string; requestedBy: string | null },
  settle: (t: Executor, refundedCents: number) => Promise<void>,
): Promise<{ refundedCents: number; provider: string }> {
  const saleId = sale.id;
  const provider = providers.get(sale.provider);
  if (!provider?.refundPayment) {
    throw new HttpError(409, "Este proveedor de pago no devuelve el dinero desde la tienda: hazlo en su panel.");
  }
  let refundId: string;
  try {
    // Read again under the sale's lock: a request that read the sale while another was being
    // refunded sees it refunded here (the other's attempt may already be closed, freeing the index).
    refundId = await transactionWithRetry(db, async (t) => {
      const [now] = await query<{ status: string }>(t, sql`SELECT status FROM sales WHERE id = ${saleId} FOR UPDATE`);
      if (now?.status === "refunded") throw new HttpError(409, "Esta venta ya está reembolsada.");
      if (now?.status !== expected) {
        throw new HttpError(
          409,
          expected === "paid"
            ? "Este pedido ya no está pagado: no se puede devolver una parte."
            : "Esta venta no tiene un reembolso pendiente.",
        );
      }
      const [{ id }] = await t
        .insert(saleRefunds)
        .values({ saleId, provider: sale.provider, requestedCents: amountCents, status: "pending", reason, requestedBy })
        .returning({ id: saleRefunds.id });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, "Ya hay una devolución en curso para esta venta. Espera unos segundos.");
    throw error;
  }
  const close = (status: RefundAttempt["status"], detail: string, refundedCents: number | null = null) =>
    db.update(saleRefunds).set({ status, detail, refundedCents, updatedAt: new Date() }).where(eq(saleRefunds.id, refundId));
  let result: RefundResult;
  try {
    result = await provider.refundPayment({
      providerRef: tx.providerRef ?? tx.id,
      transactionId: tx.id,
      amountCents,
      currency: sale.currency,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    await close("unknown", detail);
    logger.warn({ saleId, provider: sale.provider, detail }, "Devolución sin respuesta del proveedor.");
    throw new HttpError(
      error instanceof PaymentProviderUnreachable && error.reason === "timeout" ? 504 : 502,
      "El proveedor de pago no ha confirmado la devolución. Comprueba en su panel si se hizo antes de volver a pedirla.",
      { cause: detail },
    );
  }
  if (result.status === "refused") {
    const detail = result.reason.replace(/\((SIS\d{4})\)/, (all, code: string) =>
      REFUND_CODES[code] ? `(${code}: ${REFUND_CODES[code]})` : all,
    );
    await close("refused", detail);
    throw new HttpError(409, detail);
  }
  const refundedCents = result.amountCents;
  await transactionWithRetry(db, async (t) => {
    await t
      .update(saleRefunds)
      .set({ status: "refunded", detail: null, refundedCents, updatedAt: new Date() })
      .where(eq(saleRefunds.id, refundId));
    await settle(t, refundedCents);
  });
  logger.info({ saleId, provider: sale.provider, refundedCents }, "Devolución hecha.");
  return { refundedCents, provider: sale.provider };
}
