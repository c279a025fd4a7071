/**
 * The caps on what one buyer may hold unpaid (rules/limits.ts), checked inside createSale's
 * transaction before any stock row is locked.
 */
import { sql, type SQL } from "drizzle-orm";
import { ticketsInWords } from "#rules/text";
import { MAX_UNPAID_SALES_PER_ADDRESS, MAX_UNPAID_SALES_PER_EMAIL, maxUnpaidTicketsOfOption } from "#rules/limits";
import { query, type Transaction } from "#api/db/client";
import { HttpError } from "#api/http";
import { giveBack, type StoredLine } from "./stock";

/** What the caps read of the checkout session being turned into a sale. */
type Holding = { email: string; lines: StoredLine[] };

export const TOO_MANY_UNPAID_FROM_ADDRESS =
  "Hay demasiadas reservas sin pagar desde tu conexión. Paga o cancela alguna, o espera unos minutos a que caduquen.";

/**
 * Hoarding caps, checked inside createSale's transaction. The advisory locks make concurrent
 * creates of one email or one address count one after the other (email first, then address,
 * always, so two of them never wait on each other in a cycle).
 */
export async function limitUnpaidSales(tx: Transaction, session: Holding, clientAddress: string | null) {
  const email = session.email;
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
  if (oldest.length) await expireOldest(tx, oldest);
  await limitUnpaidTicketsOfOptions(tx, session, clientAddress);
}

/** The email's oldest unpaid orders make room: expired, their tickets back (kept if approved). */
async function expireOldest(tx: Transaction, oldest: { id: string }[]) {
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
 * The per-option hoarding cap (rules/limits.ts), under the buyer's advisory locks (so two sales of
 * one buyer count one after the other) and before any stock row is locked: a plain read of what
 * is left, which the stock update decides anyway. Counts exclude this sale, not written yet.
 */
async function limitUnpaidTicketsOfOptions(tx: Transaction, session: Holding, clientAddress: string | null) {
  const wanted = new Map<string, { title: string; quantity: number }>();
  for (const line of session.lines) {
    const entry = wanted.get(line.offer_price_uuid) ?? { title: line.title, quantity: 0 };
    entry.quantity += line.quantity;
    wanted.set(line.offer_price_uuid, entry);
  }
  const held = (who: SQL) => sql`coalesce((
      SELECT sum(i.quantity) FROM sale_items i JOIN sales s ON s.id = i.sale_id
      WHERE i.price_option_id = p.id AND s.status = 'pending' AND ${who}), 0)::int`;
  const rows = await query<{ id: string; available: number; by_email: number; by_address: number }>(
    tx,
    sql`
    SELECT p.id, p.available,
           ${held(sql`lower(s.email) = lower(${session.email})`)} AS by_email,
           ${clientAddress ? held(sql`s.client_address = ${clientAddress}`) : sql`0`} AS by_address
    FROM price_options p WHERE p.id IN (${sql.join(
      [...wanted.keys()].map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  for (const row of rows) {
    const line = wanted.get(row.id)!;
    for (const mine of [Number(row.by_email), Number(row.by_address)]) {
      const cap = maxUnpaidTicketsOfOption(Number(row.available) + mine);
      if (mine + line.quantity > cap) throw new HttpError(409, unpaidOfOptionMessage(line.title, cap));
    }
  }
}

const unpaidOfOptionMessage = (title: string, cap: number) =>
  `Quedan pocas entradas de «${title}»: cada comprador puede reservar sin pagar como máximo ${ticketsInWords(cap)}. ` +
  "Paga o cancela lo que ya tienes reservado, o elige menos.";
