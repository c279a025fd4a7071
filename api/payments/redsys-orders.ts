/**
 * Our record of Redsys orders (migration 0050): each transaction's order numbers, the signed
 * request the buyer's browser posts, and what Redsys signed about each one.
 */
import { randomInt } from "node:crypto";
import { and, desc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { query, type Database } from "#api/db/client";
import { isUniqueViolation } from "#api/db/errors";
import { redsysOrders } from "#api/db/schema";
import type { PaymentMethod } from "./types";

export type RedsysOrder = typeof redsysOrders.$inferSelect;

/** Ds_Response 0000–0099: authorised (for a payment, a charge). */
export const isAuthorised = (code: number | null): code is number => code !== null && code >= 0 && code <= 99;
/** Ds_Response 9915: the buyer cancelled on Redsys's page. */
export const CANCELLED_BY_BUYER = 9915;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * A new order number: 4 random digits (Redsys wants the first 4 numeric), then 8 random digits or
 * capitals. Random, not counted: the public test terminal is shared by every shop that tries
 * Redsys, and Redsys refuses an order number it has already seen on a terminal (SIS0051); a count
 * would also tell buyers how much the shop sells.
 */
export function newOrderNumber(): string {
  let order = String(randomInt(10_000)).padStart(4, "0");
  for (let i = 0; i < 8; i++) order += ALPHABET[randomInt(ALPHABET.length)];
  return order;
}

/** Stores a new order for the transaction; `build` makes its signed parameters from the number. */
export async function insertOrder(
  db: Database,
  transactionId: string,
  payMethod: PaymentMethod,
  build: (orderNumber: string) => string,
): Promise<RedsysOrder> {
  for (let attempt = 0; ; attempt++) {
    const orderNumber = newOrderNumber();
    try {
      const [row] = await db
        .insert(redsysOrders)
        .values({ orderNumber, transactionId, payMethod, merchantParameters: build(orderNumber) })
        .returning();
      return row;
    } catch (error) {
      // One in 10^16: draw again.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

export async function orderByNumber(db: Database, orderNumber: string): Promise<RedsysOrder | null> {
  const [row] = await db.select().from(redsysOrders).where(eq(redsysOrders.orderNumber, orderNumber));
  return row ?? null;
}

/** The transaction's newest order: the one its payment page posts. */
export async function latestOrder(db: Database, transactionId: string): Promise<RedsysOrder | null> {
  const [row] = await db
    .select()
    .from(redsysOrders)
    .where(eq(redsysOrders.transactionId, transactionId))
    .orderBy(desc(redsysOrders.createdAt), desc(redsysOrders.orderNumber))
    .limit(1);
  return row ?? null;
}

/** The transaction's authorised order, if Redsys has said one was paid (the first, should there be two). */
export async function authorisedOrder(db: Database, transactionId: string): Promise<RedsysOrder | null> {
  const [row] = await db
    .select()
    .from(redsysOrders)
    .where(and(eq(redsysOrders.transactionId, transactionId), isNotNull(redsysOrders.responseCode), lte(redsysOrders.responseCode, 99)))
    .orderBy(redsysOrders.notifiedAt)
    .limit(1);
  return row ?? null;
}

export type Outcome = { responseCode: number; amountCents: number | null; currency: string | null; authorisationCode: string | null };

/**
 * Records what Redsys signed about an order. An authorisation is never overwritten: a denial or a
 * cancellation that arrives after it (out of order, or replayed) changes nothing.
 */
export async function recordOutcome(db: Database, orderNumber: string, outcome: Outcome): Promise<void> {
  await query(
    db,
    sql`
    UPDATE redsys_orders SET response_code = ${outcome.responseCode}, amount_cents = ${outcome.amountCents},
      currency = ${outcome.currency}, authorisation_code = ${outcome.authorisationCode}, notified_at = now()
    WHERE order_number = ${orderNumber} AND (response_code IS NULL OR response_code > 99)`,
  );
}
