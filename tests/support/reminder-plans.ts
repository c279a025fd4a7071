/**
 * The plans of the reminder pass's statements (api/services/reminders/pass.ts), for the plan test
 * and the bench: each must reach coupons, sale items, sales and offers through an index, never a
 * sequential scan, whatever the number of coupons.
 */
import { sql, type SQL } from "drizzle-orm";
import { madridDate } from "#rules/dates";
import { DEFAULT_BOOKING_DAYS, DEFAULT_EXPIRY_DAYS, expiryWindows } from "#rules/reminders";
import { query, type Executor } from "#api/db/client";
import { bookingCandidatesQuery, bookingDueQuery, bookingOffers, claimDueQuery, expiryDueQuery } from "#api/services/reminders/pass";

export type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

export async function planOf(db: Executor, statement: SQL): Promise<PlanNode[]> {
  const rows = await query<{ "QUERY PLAN": unknown }>(db, sql`EXPLAIN (FORMAT JSON) ${statement}`);
  const raw = rows[0]["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  return nodes(parsed[0].Plan);
}

/** The tables that grow with the shop's sales: none may be read whole. */
export const LARGE_TABLES = ["coupons", "sale_items", "sales", "offers", "coupon_reminders"];

/** Every statement of a pass at `now` with the default settings, by name. */
export async function reminderPassPlans(db: Executor, now: Date): Promise<{ name: string; plan: PlanNode[] }[]> {
  const today = madridDate(now);
  const plans: { name: string; plan: PlanNode[] }[] = [];
  for (const window of expiryWindows(DEFAULT_EXPIRY_DAYS))
    plans.push({ name: `expiry ${window.days}`, plan: await planOf(db, expiryDueQuery(today, window.days, window.maxLeft)) });
  for (const days of DEFAULT_BOOKING_DAYS) {
    plans.push({ name: `booking ${days}: offers`, plan: await planOf(db, bookingCandidatesQuery(now, days)) });
    const offers = await bookingOffers(db, now, days);
    plans.push({ name: `booking ${days}: coupons`, plan: await planOf(db, bookingDueQuery(now, days, offers)) });
  }
  plans.push({ name: "claim", plan: await planOf(db, claimDueQuery(1000)) });
  return plans;
}

/** «Seq Scan on coupons», one line per sequential scan of a large table. */
export const sequentialScans = (plan: PlanNode[]) =>
  plan
    .filter((n) => n["Node Type"] === "Seq Scan" && LARGE_TABLES.includes(n["Relation Name"] ?? ""))
    .map((n) => `Seq Scan on ${n["Relation Name"]}`);
