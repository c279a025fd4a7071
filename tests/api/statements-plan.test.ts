/**
 * A partner's statement reads its coupons through indexes: the plan of the ledger's query
 * (api/services/statements/ledger.ts), over a shop of 1,000 partners and 20,000 coupons, reaches
 * offers, sale lines, sales and coupons by index, never by a sequential scan,
 * before and after a first statement. On PostgreSQL only (TEST_DATABASE_URL, .ci/run's
 * PostgreSQL pass): `npm run bench` (section `statements`) times a month at 1,000,000 coupons.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { seedCoupons } from "#api/db/seed-coupons";
import { seedLarge } from "#api/db/seed-large";
import { issueStatement } from "#api/services/statements";
import { changedCouponsQuery } from "#api/services/statements/ledger";
import { TRY_OUT_SHOP_LEGAL } from "#platform/config.server";
import { monthPeriod } from "#rules/statements";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { LARGE_TABLES, planOf, type PlanNode } from "#tests/support/reminder-plans";

const OFFERS = 1_000;
const PARTNERS = 1_000;
const COUPONS = 20_000;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

// statement_lines holds one partner's few lines here, which the planner rightly reads whole.
const scans = (plan: PlanNode[]) =>
  plan
    .filter((n) => n["Node Type"] === "Seq Scan" && LARGE_TABLES.includes(n["Relation Name"] ?? ""))
    .map((n) => `Seq Scan on ${n["Relation Name"]}`);

describe.runIf(onPostgres)(`statements over ${COUPONS} coupons of ${PARTNERS} partners on PostgreSQL`, () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
    await seedLarge(api.db, OFFERS, () => {}, { organizations: PARTNERS });
    expect(await seedCoupons(api.db, { offers: OFFERS, total: COUPONS })).toBeGreaterThanOrEqual(COUPONS);
  }, 120_000);
  afterAll(() => api?.close());

  it("the ledger reads one partner's coupons through indexes, before and after its first statement", async () => {
    const [org] = await query<{ id: string }>(api.db, sql`SELECT md5('ofertas:large:org:7')::uuid AS id`);
    const { start, end } = monthPeriod("2026-01");
    const before = await planOf(api.db, changedCouponsQuery(org.id, end, "redeemed"));
    expect(scans(before)).toEqual([]);
    const issued = await issueStatement(api.db, { organizationId: org.id, start, end }, { shop: TRY_OUT_SHOP_LEGAL, now: new Date() });
    expect(issued?.statement.lineCount).toBeGreaterThan(0);
    await api.db.execute(sql`ANALYZE statement_lines`);
    const after = await planOf(api.db, changedCouponsQuery(org.id, monthPeriod("2026-02").end, "redeemed"));
    expect(scans(after)).toEqual([]);
  }, 60_000);
});
