/**
 * POST /sales/create/: turns a validated checkout into a pending sale. Tickets and promo-code uses
 * are taken in the same transaction as the sale is written, with conditional updates, so two buyers
 * can never both get the last ticket. The tickets are taken last, just before the commit: the stock
 * row of a popular offer is locked for one statement and the commit, not for the whole sale (ADR
 * 024). The provider is called after the commit: a slow provider must not hold row locks.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { CheckoutData } from "#contract/checkout";
import { ticketsInWords } from "#rules/text";
import { saleEndedMessage } from "#rules/sale-end";
import { query, transactionWithRetry, type Database, type Transaction } from "#api/db/client";
import { checkoutSessions, offers, paymentTransactions, priceOptions, promoCodeUses, saleItems, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { onSaleNow } from "#api/services/offers/cards";
import { PaymentProviderUnreachable, type PaymentMethod, type PaymentProvider } from "#api/payments/types";
import { usesByEmail } from "./promo-codes";
import { releaseSale } from "./release";
import { ticketsHeld, type StoredLine } from "./stock";
import { limitUnpaidSales } from "./unpaid-caps";

export { TOO_MANY_UNPAID_FROM_ADDRESS } from "./unpaid-caps";

export type PaymentUrls = { origin: string; apiOrigin: string };

/**
 * Who is buying: the account (a sale made while logged in belongs to it) and the client address
 * for the caps on unpaid reservations (null = exempt by RATE_LIMIT_EXEMPT, not capped).
 */
export type Buyer = { clientAddress: string | null; userId: string | null };

export const METHOD_NOT_OFFERED = "Esa forma de pago no está disponible. Elige otra para pagar.";

export const PROVIDER_NOT_ANSWERING = "El proveedor de pago no responde. No se te ha cobrado nada. Inténtalo de nuevo.";

/** A checkout session, locked for this sale. */
type TakenSession = {
  token: string;
  email: string;
  totalCents: number;
  lines: StoredLine[];
  checkoutData: CheckoutData;
  /** The promo codes its lines use, each once. */
  codes: string[];
};

export async function createSale(
  db: Database,
  provider: PaymentProvider,
  sessionToken: string,
  urls: PaymentUrls,
  reservationMinutes: number,
  buyer: Buyer = { clientAddress: null, userId: null },
  /** The way of paying the buyer chose at checkout (Redsys: card or Bizum); absent: the provider's page chooses. */
  paymentMethod?: PaymentMethod,
) {
  // Before anything is reserved: a choice the provider does not offer here is the client's mistake.
  if (paymentMethod && !provider.methods?.includes(paymentMethod)) throw new HttpError(400, METHOD_NOT_OFFERED);
  // Locks in this order, as every flow over sales takes them: the session row, the buyer's advisory
  // locks (email, then address), stock rows by id, promo-code rows by id. The sale's rows are
  // written before the stock is taken: a sold-out line rolls them back, and the hot stock row is
  // held only from its update to the commit.
  const reserved = await transactionWithRetry(db, async (tx) => {
    const session = await takeSession(tx, sessionToken);
    const existing = await saleOfSession(tx, sessionToken);
    if (existing) return { saleId: existing, existing: true as const };
    await refuseSoldOut(tx, session);
    await refuseSaleEnded(tx, session);
    await limitUnpaidSales(tx, session, buyer.clientAddress);
    const saleId = await recordSale(tx, session, { provider, buyer, reservationMinutes });
    const transactionId = await openTransaction(tx, session, saleId, provider);
    await reserveStock(tx, session);
    await takePromoCodeUses(tx, session, saleId);
    return { saleId, transactionId, existing: false as const, session };
  });
  if (reserved.existing) return existingPayment(db, reserved.saleId, provider, paymentMethod);
  return openPayment(db, provider, urls, reserved, paymentMethod);
}

/** The checkout session, locked (a double click waits here for the first request's sale). */
async function takeSession(tx: Transaction, sessionToken: string): Promise<TakenSession> {
  const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.token, sessionToken)).for("update");
  if (!session || session.expiresAt.getTime() < Date.now()) {
    throw new HttpError(400, "La sesión de pago ha caducado. Revisa tu carrito y vuelve a continuar.");
  }
  const lines = session.items as StoredLine[];
  return {
    token: session.token,
    email: session.email,
    totalCents: session.totalCents,
    lines,
    checkoutData: session.checkoutData as CheckoutData,
    codes: [...new Set(lines.flatMap((l) => (l.promo_code ? [l.promo_code] : [])))],
  };
}

/** The sale this checkout session already made, if any. */
async function saleOfSession(tx: Transaction, sessionToken: string): Promise<string | null> {
  const [existing] = await tx.select({ id: sales.id }).from(sales).where(eq(sales.sessionToken, sessionToken));
  return existing?.id ?? null;
}

const soldOutMessage = (title: string) => `Se han agotado las entradas de «${title}» mientras comprabas.`;

/**
 * A plain read, no lock: a line already sold out is refused before the buyer's locks are taken
 * and the sale is written. Only a no here is final; a yes is decided by reserveStock's update.
 */
async function refuseSoldOut(tx: Transaction, session: TakenSession) {
  const ids = session.lines.map((l) => l.offer_price_uuid);
  const rows = await tx
    .select({ id: priceOptions.id, available: priceOptions.available })
    .from(priceOptions)
    .where(inArray(priceOptions.id, ids));
  const left = new Map(rows.map((r) => [r.id, r.available]));
  const short = session.lines.find((l) => (left.get(l.offer_price_uuid) ?? 0) < l.quantity);
  if (short) throw new HttpError(409, soldOutMessage(short.title));
}

/** A line whose offer's sale ended since the checkout session was made (rules/sale-end.ts). */
async function refuseSaleEnded(tx: Transaction, session: TakenSession) {
  const ids = session.lines.map((l) => l.offer_price_uuid);
  const ended = await tx
    .select({ id: priceOptions.id })
    .from(priceOptions)
    .innerJoin(offers, eq(offers.id, priceOptions.offerId))
    .where(and(inArray(priceOptions.id, ids), sql`NOT ${onSaleNow(sql`${offers.saleUntil}`)}`));
  const line = session.lines.find((l) => ended.some((e) => e.id === l.offer_price_uuid));
  if (line) throw new HttpError(409, saleEndedMessage(line.title));
}

/**
 * Takes each line's tickets with a conditional update, within the per-customer limit. The updates
 * lock the stock rows in id order, so two carts holding the same options in a different order
 * queue one behind the other instead of deadlocking; then the promo-code rows, in id order.
 */
async function reserveStock(tx: Transaction, session: TakenSession) {
  const lines = [...session.lines].sort((a, b) => (a.offer_price_uuid < b.offer_price_uuid ? -1 : 1));
  for (const line of lines) {
    const taken = await query<{ per_customer: number | null }>(
      tx,
      sql`
      UPDATE price_options SET available = available - ${line.quantity}
      WHERE id = ${line.offer_price_uuid} AND available >= ${line.quantity}
      RETURNING per_customer`,
    );
    if (taken.length === 0) throw new HttpError(409, soldOutMessage(line.title));
    const perCustomer = taken[0].per_customer;
    if (perCustomer != null) {
      // The stock row is locked by the update above, so this count cannot race another buyer; it
      // already includes this sale's own line, written by recordSale.
      const held = await ticketsHeld(tx, line.offer_price_uuid, session.email);
      if (held > perCustomer) {
        throw new HttpError(409, `Has superado el máximo de ${ticketsInWords(perCustomer)} por cliente de «${line.title}».`);
      }
    }
  }
  if (session.codes.length) {
    await tx.execute(
      sql`SELECT id FROM promo_codes WHERE code IN (${sql.join(
        session.codes.map((c) => sql`${c}`),
        sql`, `,
      )}) ORDER BY id FOR UPDATE`,
    );
  }
}

/** The pending sale and its lines, held until `reservationMinutes` from now. */
async function recordSale(
  tx: Transaction,
  session: TakenSession,
  { provider, buyer, reservationMinutes }: { provider: PaymentProvider; buyer: Buyer; reservationMinutes: number },
): Promise<string> {
  const [sale] = await tx
    .insert(sales)
    .values({
      sessionToken: session.token,
      email: session.email,
      userId: buyer.userId,
      status: "pending",
      provider: provider.name,
      totalCents: session.totalCents,
      checkoutData: session.checkoutData,
      expiresAt: new Date(Date.now() + reservationMinutes * 60_000),
      clientAddress: buyer.clientAddress,
    })
    .returning({ id: sales.id });
  await tx.insert(saleItems).values(
    session.lines.map((l) => ({
      saleId: sale.id,
      offerId: l.offer_uuid,
      priceOptionId: l.offer_price_uuid,
      quantity: l.quantity,
      unitPriceCents: l.unit_cents,
      paidUnitCents: l.paid_unit_cents,
      promoCode: l.promo_code,
      slotId: l.slot_id,
      forPresent: l.for_present,
      giftRecipientName: l.gift?.recipient_name ?? null,
      giftSenderName: l.gift?.sender_name ?? null,
      giftRecipientEmail: l.gift?.recipient_email ?? null,
      giftMessage: l.gift?.message ?? null,
      giftSendOn: l.gift?.send_on ?? null,
    })),
  );
  return sale.id;
}

/** One use of each promo code, on rows already locked by reserveStock. */
async function takePromoCodeUses(tx: Transaction, session: TakenSession, saleId: string) {
  for (const code of session.codes) {
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
    await tx.insert(promoCodeUses).values({ promoCodeId: promo.id, saleId, email: session.email });
  }
}

/** Our record of the payment, before the provider knows of it. */
async function openTransaction(tx: Transaction, session: TakenSession, saleId: string, provider: PaymentProvider): Promise<string> {
  const [transaction] = await tx
    .insert(paymentTransactions)
    .values({
      saleId,
      provider: provider.name,
      amountCents: session.totalCents,
      status: "created",
      returnUrl: "",
      cancelUrl: "",
    })
    .returning({ id: paymentTransactions.id });
  return transaction.id;
}

/** After the commit: the provider opens the payment; if it cannot, the sale gives its tickets back. */
async function openPayment(
  db: Database,
  provider: PaymentProvider,
  urls: PaymentUrls,
  { saleId, transactionId, session }: { saleId: string; transactionId: string; session: TakenSession },
  paymentMethod: PaymentMethod | undefined,
) {
  const { checkoutData, lines } = session;
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
      paymentMethod,
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
    // Cancelled at once, tickets and promo-code uses back on sale. A provider that did not answer
    // may still have opened the payment: a late capture takes the sale as a lapsed one (capture.ts).
    await releaseSale(db, saleId, "cancelled");
    if (error instanceof PaymentProviderUnreachable) {
      throw new HttpError(error.reason === "timeout" ? 504 : 502, PROVIDER_NOT_ANSWERING, { cause: error.message });
    }
    throw new HttpError(502, "No se ha podido iniciar el pago con el proveedor. Inténtalo de nuevo en unos minutos.", {
      cause: error instanceof Error ? error.message : undefined,
    });
  }
}

/**
 * The answer for a session that already has its sale (a double click, a retry). The request that
 * created the sale may still be waiting for the provider's redirect URL: wait for it a little
 * rather than telling the buyer that an order being set up is no longer payable.
 */
async function existingPayment(db: Database, saleId: string, provider: PaymentProvider, paymentMethod?: PaymentMethod, waitMs = 15_000) {
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
    const same = row.tx.provider === provider.name;
    // Back from the provider's page, the buyer may choose the other way of paying: its page says which.
    const redirectUrl =
      same && paymentMethod
        ? `${row.tx.redirectUrl}${row.tx.redirectUrl.includes("?") ? "&" : "?"}method=${paymentMethod}`
        : row.tx.redirectUrl;
    return {
      payment: {
        sale_id: saleId,
        transaction_id: row.tx.id,
        provider: row.tx.provider,
        flow: same ? provider.flow : "hosted",
        redirect_url: redirectUrl,
        provider_ref: row.tx.providerRef,
      },
    };
  }
}
