/**
 * The reminder pass: which unused coupons are due a reminder now, and their mails into the outbox.
 *
 * 1. Find: each kind and N inserts a coupon_reminders row (coupon, kind, N) for every coupon due
 *    it. The rows' key makes a reminder once, however many passes or processes run; the pass
 *    walks in from the offers whose validity ends on each day of the window
 *    (offers_valid_until_idx) or from the sales paid within it (sales_paid_at_idx), never over
 *    every coupon.
 * 2. Queue: due rows are claimed a batch at a time with FOR UPDATE SKIP LOCKED (several processes
 *    share the work without waiting), grouped into one mail per sale item and recipient, and
 *    marked queued (or skipped, for a buyer who stopped that kind) in the transaction that writes
 *    the mails. A pass cut short leaves due rows for the next one.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Config } from "#platform/config.server";
import { madridDate, addDays } from "#rules/dates";
import {
  DEFAULT_BOOKING_DAYS,
  DEFAULT_EXPIRY_DAYS,
  expiryWindows,
  parseReminderDays,
  requiresBooking,
  type ReminderKind,
} from "#rules/reminders";
import { query, type Database, type Executor } from "#api/db/client";
import { queueMails, type QueuedMail } from "#api/mail/outbox";
import { reminderRecipients } from "./recipients";
import { stoppedAmong } from "./stops";

export type ReminderSettings = {
  /** Days before the validity ends, largest first (REMINDER_EXPIRY_DAYS). */
  expiryDays: readonly number[];
  /** Days after paying, for offers whose conditions ask for a booking (REMINDER_BOOKING_DAYS). */
  bookingDays: readonly number[];
};

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = { expiryDays: DEFAULT_EXPIRY_DAYS, bookingDays: DEFAULT_BOOKING_DAYS };

export function reminderSettings(config: Pick<Config, "REMINDER_EXPIRY_DAYS" | "REMINDER_BOOKING_DAYS">): ReminderSettings {
  return {
    expiryDays: parseReminderDays(config.REMINDER_EXPIRY_DAYS) ?? DEFAULT_EXPIRY_DAYS,
    bookingDays: parseReminderDays(config.REMINDER_BOOKING_DAYS) ?? DEFAULT_BOOKING_DAYS,
  };
}

/** The mail kind (api/mail/messages.ts) of each reminder kind. */
export const REMINDER_MAIL_KINDS: Record<ReminderKind, string> = { expiry: "expiry-reminder", booking: "booking-reminder" };

/**
 * A booking reminder whose day passed while no pass ran (the shop was down) is still sent within
 * this many days; later it would arrive out of the blue, and the expiry reminders still come.
 */
export const BOOKING_CATCH_UP_DAYS = 7;

/** Rows claimed per transaction when queueing. */
const BATCH = 1000;

/**
 * A coupon that can still be used: its sale paid (not refunded), the coupon not redeemed, not
 * refunded on its own and not held by its buyer's refund request; `c` and `s` are the coupon and
 * its sale. Its validity is checked by each query for its own dates.
 */
export const OPEN_COUPON = sql`s.status = 'paid' AND c.redeemed_at IS NULL AND c.refunded_at IS NULL AND c.refund_requested_at IS NULL`;

export type ReminderPassResult = { found: number; queued: number; skipped: number; mails: number };

/** One pass at `now`: find what is due, then queue it. Safe to run in several processes at once. */
export async function runReminderPass(
  db: Database,
  now: Date,
  settings: ReminderSettings = DEFAULT_REMINDER_SETTINGS,
): Promise<ReminderPassResult> {
  const found = (await findExpiryReminders(db, now, settings.expiryDays)) + (await findBookingReminders(db, now, settings.bookingDays));
  return { found, ...(await queueDueReminders(db)) };
}

const counted = async (db: Executor, insert: SQL) => {
  const [row] = await query<{ n: number }>(db, sql`WITH inserted AS (${insert} RETURNING 1) SELECT count(*)::int AS n FROM inserted`);
  return Number(row?.n ?? 0);
};

/**
 * From a range of offers (or of sales) to their lines, sales and coupons, each step a lookup by
 * its own index: OFFSET 0 keeps each step a subquery of its own, which the planner does not turn
 * into a hash join over the whole table (it did for sale_items and coupons at 60,000 coupons, and
 * for coupon_reminders in the NOT EXISTS below, a table that keeps every reminder ever sent).
 */
const LINES_OF_OFFER = sql`CROSS JOIN LATERAL (SELECT si.id, si.sale_id FROM sale_items si WHERE si.offer_id = o.id OFFSET 0) si`;
const SALE_OF_LINE = sql`CROSS JOIN LATERAL (SELECT s.status, s.paid_at FROM sales s WHERE s.id = si.sale_id OFFSET 0) s`;
const COUPONS_OF_LINE = sql`CROSS JOIN LATERAL (SELECT c.id, c.redeemed_at, c.refunded_at, c.refund_requested_at FROM coupons c WHERE c.sale_item_id = si.id OFFSET 0) c`;

/**
 * The coupons due expiry reminder N (`days`) whose offer ends `daysLeft` days after `today`: one
 * day of expiries at a time, so that each statement stays short whatever the shop's size (a
 * statement timeout, and on the embedded database other requests waiting their turn).
 */
export function expiryDueQuery(today: string, days: number, daysLeft: number) {
  return sql`
    SELECT c.id, 'expiry', ${days}::int
    FROM offers o
    ${LINES_OF_OFFER}
    ${SALE_OF_LINE}
    ${COUPONS_OF_LINE}
    WHERE o.valid_until = ${addDays(today, daysLeft)}::date
      AND ${OPEN_COUPON}
      -- Paid before the threshold's day began in Madrid: else the purchase mail just said it.
      AND s.paid_at < ((o.valid_until - ${days}::int)::timestamp AT TIME ZONE 'Europe/Madrid')
      AND NOT EXISTS (SELECT 1 FROM coupon_reminders r WHERE r.coupon_id = c.id AND r.kind = 'expiry' AND r.days = ${days}::int OFFSET 0)`;
}

async function findExpiryReminders(db: Database, now: Date, days: readonly number[]): Promise<number> {
  const today = madridDate(now);
  let found = 0;
  for (const window of expiryWindows(days))
    for (let left = window.minLeft; left <= window.maxLeft; left++)
      found += await counted(
        db,
        sql`INSERT INTO coupon_reminders (coupon_id, kind, days) ${expiryDueQuery(today, window.days, left)} ON CONFLICT DO NOTHING`,
      );
  return found;
}

/** The coupons due a booking reminder N: paid between N and N + BOOKING_CATCH_UP_DAYS days ago. */
export function bookingDueQuery(now: Date, days: number, offerIds: string[]) {
  const { from, to } = bookingWindow(now, days);
  return sql`
    SELECT c.id, 'booking', ${days}::int
    FROM sales s
    CROSS JOIN LATERAL (SELECT si.id, si.offer_id FROM sale_items si WHERE si.sale_id = s.id OFFSET 0) si
    CROSS JOIN LATERAL (SELECT o.valid_until FROM offers o WHERE o.id = si.offer_id OFFSET 0) o
    ${COUPONS_OF_LINE}
    WHERE s.status = 'paid' AND s.paid_at > ${from.toISOString()}::timestamptz AND s.paid_at <= ${to.toISOString()}::timestamptz
      AND si.offer_id = ANY(${sql.param(offerIds)}::uuid[])
      AND ${OPEN_COUPON}
      AND (o.valid_until IS NULL OR o.valid_until >= ${madridDate(now)}::date)
      AND NOT EXISTS (SELECT 1 FROM coupon_reminders r WHERE r.coupon_id = c.id AND r.kind = 'booking' AND r.days = ${days}::int OFFSET 0)`;
}

function bookingWindow(now: Date, days: number) {
  const to = new Date(now.getTime() - days * 86_400_000);
  return { from: new Date(to.getTime() - BOOKING_CATCH_UP_DAYS * 86_400_000), to };
}

/** The offers bought within booking reminder N's window, with their conditions. */
export function bookingCandidatesQuery(now: Date, days: number) {
  const { from, to } = bookingWindow(now, days);
  return sql`
    SELECT o.id, o.conditions
    FROM (
      SELECT DISTINCT si.offer_id FROM sales s
      CROSS JOIN LATERAL (SELECT si.offer_id FROM sale_items si WHERE si.sale_id = s.id OFFSET 0) si
      WHERE s.status = 'paid' AND s.paid_at > ${from.toISOString()}::timestamptz AND s.paid_at <= ${to.toISOString()}::timestamptz
    ) bought
    CROSS JOIN LATERAL (SELECT o.id, o.conditions FROM offers o WHERE o.id = bought.offer_id OFFSET 0) o`;
}

/**
 * Of the offers bought within the window, those whose conditions ask for a booking: the rule
 * (rules/reminders.ts) is written once, in TypeScript, not again in SQL.
 */
export async function bookingOffers(db: Executor, now: Date, days: number): Promise<string[]> {
  const offers = await query<{ id: string; conditions: string }>(db, bookingCandidatesQuery(now, days));
  return offers.filter((o) => requiresBooking(o.conditions)).map((o) => o.id);
}

async function findBookingReminders(db: Database, now: Date, days: readonly number[]): Promise<number> {
  let found = 0;
  for (const n of days) {
    const booking = await bookingOffers(db, now, n);
    if (!booking.length) continue;
    found += await counted(
      db,
      sql`INSERT INTO coupon_reminders (coupon_id, kind, days) ${bookingDueQuery(now, n, booking)} ON CONFLICT DO NOTHING`,
    );
  }
  return found;
}

/** Due rows, oldest first, that no other process holds: a batch to queue. */
export function claimDueQuery(limit: number) {
  return sql`
    SELECT r.coupon_id, r.kind, r.days, c.sale_item_id AS item_id
    FROM coupon_reminders r JOIN coupons c ON c.id = r.coupon_id
    WHERE r.status = 'due'
    ORDER BY r.created_at
    LIMIT ${limit}
    FOR UPDATE OF r SKIP LOCKED`;
}

type Claimed = { coupon_id: string; kind: ReminderKind; days: number; item_id: string };

/** Claims due rows a batch at a time and turns each batch into mail, until none is left. */
export async function queueDueReminders(db: Database): Promise<Omit<ReminderPassResult, "found">> {
  const total = { queued: 0, skipped: 0, mails: 0 };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await query<Claimed>(tx, claimDueQuery(BATCH));
      return { claimed: rows.length, ...(rows.length ? await queueBatch(tx, rows) : { queued: 0, skipped: 0, mails: 0 }) };
    });
    total.queued += batch.queued;
    total.skipped += batch.skipped;
    total.mails += batch.mails;
    if (batch.claimed < BATCH) return total;
  }
}

async function queueBatch(tx: Executor, rows: Claimed[]) {
  const recipients = await reminderRecipients(tx, [...new Set(rows.map((r) => r.item_id))]);
  const stopped = new Map<ReminderKind, Set<string>>();
  for (const kind of new Set(rows.map((r) => r.kind))) {
    const emails = [...new Set(rows.filter((r) => r.kind === kind).map((r) => recipients.get(r.item_id)!))];
    stopped.set(kind, await stoppedAmong(tx, emails, kind));
  }
  // One mail per item, kind and N, listing its coupons.
  const groups = new Map<string, { kind: ReminderKind; days: number; item: string; to: string; coupons: string[] }>();
  for (const r of rows) {
    const key = `${r.kind}:${r.days}:${r.item_id}`;
    const group = groups.get(key) ?? { kind: r.kind, days: r.days, item: r.item_id, to: recipients.get(r.item_id)!, coupons: [] };
    group.coupons.push(r.coupon_id);
    groups.set(key, group);
  }
  const mails: QueuedMail[] = [];
  const status = new Map<string, "queued" | "skipped">();
  for (const [key, g] of groups) {
    const skip = stopped.get(g.kind)!.has(g.to);
    status.set(key, skip ? "skipped" : "queued");
    if (skip) continue;
    g.coupons.sort();
    mails.push({
      kind: REMINDER_MAIL_KINDS[g.kind],
      to: g.to,
      // The first coupon names the group: an item whose coupons fell into two batches gets two
      // mails, each with its own codes, rather than one that loses the second half.
      dedupeKey: `reminder:${g.kind}:${g.days}:${g.item}:${g.coupons[0]}`,
      data: { sale_item_id: g.item, days: g.days, coupons: g.coupons },
    });
  }
  await queueMails(tx, mails);
  const statusOf = (r: Claimed) => status.get(`${r.kind}:${r.days}:${r.item_id}`)!;
  await tx.execute(sql`
    UPDATE coupon_reminders r SET status = u.status, done_at = now()
    FROM unnest(${sql.param(rows.map((r) => r.coupon_id))}::uuid[], ${sql.param(rows.map((r) => r.kind))}::text[],
                ${sql.param(rows.map((r) => r.days))}::int[], ${sql.param(rows.map(statusOf))}::text[]) AS u(coupon_id, kind, days, status)
    WHERE r.coupon_id = u.coupon_id AND r.kind = u.kind AND r.days = u.days`);
  const skipped = rows.filter((r) => statusOf(r) === "skipped").length;
  return { queued: rows.length - skipped, skipped, mails: mails.length };
}
