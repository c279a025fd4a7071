/**
 * The reminder pass at scale reads coupons through indexes: the plans of each of its statements,
 * on PGlite and (with TEST_DATABASE_URL) PostgreSQL, over a catalogue with thousands of coupons,
 * hold no sequential scan of a table that grows with sales. `npm run bench` (section
 * `reminders`) times the pass over 1,000,000 coupons.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { madridDate } from "#rules/dates";
import { query } from "#api/db/client";
import { seedCoupons } from "#api/db/seed-coupons";
import { seedLarge } from "#api/db/seed-large";
import { runReminderPass } from "#api/services/reminders/pass";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { reminderPassPlans, sequentialScans } from "#tests/support/reminder-plans";

const OFFERS = 1_000;
const COUPONS = 20_000;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await seedLarge(api.db, OFFERS, () => {}, { spreadFrom: madridDate(new Date()) });
  expect(await seedCoupons(api.db, { offers: OFFERS, total: COUPONS })).toBeGreaterThanOrEqual(COUPONS);
}, 600_000);
afterAll(() => api?.close());

it(`finds and claims reminders over ${COUPONS} coupons through indexes only`, async () => {
  const now = new Date();
  const plans = await reminderPassPlans(api.db, now);
  expect(plans.map((p) => p.name)).toEqual(["expiry 30", "expiry 7", "booking 2: offers", "booking 2: coupons", "claim"]);
  for (const { name, plan } of plans) expect(sequentialScans(plan), name).toEqual([]);
  // The pass itself, and the claim once rows are due: still no sequential scan.
  const first = await runReminderPass(api.db, now);
  expect(first.found).toBeGreaterThan(1000);
  expect(first.mails).toBeGreaterThan(500);
  for (const { name, plan } of await reminderPassPlans(api.db, now)) expect(sequentialScans(plan), `${name}, after a pass`).toEqual([]);
  expect((await runReminderPass(api.db, now)).found).toBe(0);
}, 600_000);

it("the seeded coupons carry their sale's facts as the coupons_sale_facts trigger writes them, and valid codes", async () => {
  const [row] = await query<{ wrong: number; bad_codes: number }>(
    api.db,
    sql`SELECT count(*) FILTER (WHERE c.organization_id IS DISTINCT FROM o.organization_id OR c.offer_id IS DISTINCT FROM o.id
                                  OR c.paid_at IS DISTINCT FROM s.paid_at OR c.paid_unit_cents IS DISTINCT FROM si.paid_unit_cents
                                  OR (c.refunded_at IS NOT NULL) IS DISTINCT FROM (s.status <> 'paid'))::int AS wrong,
               count(*) FILTER (WHERE c.code !~ '^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$' OR c.code ~ '[IO]')::int AS bad_codes
        FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id JOIN offers o ON o.id = si.offer_id`,
  );
  expect(row).toEqual({ wrong: 0, bad_codes: 0 });
});
