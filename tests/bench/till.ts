/**
 * The bench's `till` section: a busy venue's tills on the shop of the `statements` section
 * (support/coupon-shop.ts, the busy partner's 20,000 coupons of last month), through the API as
 * the till calls it, on PGlite and then on PostgreSQL. BENCH_TILLS (20) tills at once, each
 * logged in on its own, each verifying a code and pressing «Canjear» for its own queue of
 * coupons; the p99 of each request. Then two tills press «Canjear» on the same coupon at the same
 * instant: one is told «Canjeado», the other when it was already redeemed, and the coupon is
 * redeemed once. Each run redeems coupons still valid, so a seeded database serves many runs.
 */
import { sql } from "drizzle-orm";
import { query } from "#api/db/client";
import { previousMonth } from "#rules/statements";
import { couponShop, dbName, KINDS, type Kind } from "./support/coupon-shop";
import { figure } from "./support/figures";
import { fmtMs, heading, percentile } from "./support/helpers";
import { busyOrganizationId, joinBusyOrganization, partnerToken, timedCall } from "./support/partner-api";
import type { BenchSection } from "./support/section";
import { startServer, stop } from "./support/server";
import { busyMonth, withDatabase } from "./statements";

const TILLS = Number(process.env.BENCH_TILLS ?? 20);
/** Coupons each till redeems. */
const QUEUE = Number(process.env.BENCH_TILL_QUEUE ?? 25);
const GOAL_P99_MS = 300;

async function tillAtScale(kind: Kind) {
  const db = dbName(kind);
  heading(`${TILLS} tills at a busy venue on ${db}`);
  const shop = await couponShop(kind, "till");
  if (!shop) {
    figure(`${db}: ${TILLS} tills at once`, "not measured", "needs BENCH_DATABASE_URL", null);
    return;
  }
  try {
    // The busy partner's valid coupons still to redeem: one queue per till, and one for the double press.
    const coupons = await withDatabase(shop, async (db) => {
      await busyMonth(db, previousMonth(new Date()));
      await joinBusyOrganization(db);
      const organizationId = await busyOrganizationId(db);
      return query<{ id: string; code: string }>(
        db,
        sql`SELECT c.id, c.code FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id
              JOIN sales s ON s.id = si.sale_id AND s.status = 'paid' JOIN offers o ON o.id = si.offer_id
            WHERE o.organization_id = ${organizationId} AND c.redeemed_at IS NULL AND c.refunded_at IS NULL
              AND c.refund_requested_at IS NULL AND (o.valid_until IS NULL OR o.valid_until >= current_date + 1)
            ORDER BY c.code LIMIT ${TILLS * QUEUE + 1}`,
      );
    });
    if (coupons.length < TILLS * QUEUE + 1) throw new Error(`only ${coupons.length} coupons left to redeem: seed a fresh database`);
    const server = await startServer(
      shop.databaseUrl ? { env: { DATABASE_URL: shop.databaseUrl } } : { dataDir: shop.dataDir, keepData: true },
    );
    try {
      const tokens: string[] = [];
      for (let t = 0; t < TILLS; t++) tokens.push(await partnerToken(server.origin));
      const verify: number[] = [];
      const redeem: number[] = [];
      let wrong = 0;
      let firstWrong = "";
      const started = performance.now();
      await Promise.all(
        tokens.map(async (token, t) => {
          for (const coupon of coupons.slice(t * QUEUE, (t + 1) * QUEUE)) {
            const v = await timedCall(server.origin, token, "/verification/coupon/", { code: coupon.code });
            const r = await timedCall(server.origin, token, `/sales/redeem/${coupon.id}/`, {});
            verify.push(v.ms);
            redeem.push(r.ms);
            if (v.status !== 200 || r.status !== 200) {
              wrong++;
              firstWrong ||= `verify ${v.status}, «Canjear» ${r.status}: ${JSON.stringify(v.status !== 200 ? v.body : r.body).slice(0, 300)}`;
            }
          }
        }),
      );
      const wall = performance.now() - started;
      console.log(
        `${redeem.length} coupons redeemed by ${TILLS} tills in ${(wall / 1000).toFixed(1)} s (${(redeem.length / (wall / 1000)).toFixed(0)}/s); ` +
          `p50 verify ${fmtMs(percentile(verify, 50))}, «Canjear» ${fmtMs(percentile(redeem, 50))}; ${wrong} not 200`,
      );
      if (firstWrong) console.log(`the first: ${firstWrong}`);
      const p99 = Math.max(percentile(verify, 99), percentile(redeem, 99));
      figure(
        `${db}: ${TILLS} tills at once, verify; «Canjear» (p99)`,
        `${fmtMs(percentile(verify, 99))}; ${fmtMs(percentile(redeem, 99))}${wrong ? `, ${wrong} refused` : ""}`,
        `< ${GOAL_P99_MS} ms`,
        p99 < GOAL_P99_MS && wrong === 0,
      );

      // Two tills, one coupon, the same instant.
      const last = coupons[coupons.length - 1];
      const both = await Promise.all(tokens.slice(0, 2).map((token) => timedCall(server.origin, token, `/sales/redeem/${last.id}/`, {})));
      const statuses = both.map((r) => r.status).sort();
      const refused = both.find((r) => r.status === 409)?.body as { detail?: string } | undefined;
      const after = await timedCall(server.origin, tokens[0], "/verification/coupon/", { code: last.code });
      const once =
        statuses.join(",") === "200,409" &&
        /ya se canjeó el/.test(refused?.detail ?? "") &&
        (after.body as { state?: string }).state === "redeemed";
      figure(
        `${db}: one coupon, two tills at the same instant`,
        `${statuses.join(" and ")}${refused?.detail ? ` («${refused.detail}»)` : ""}`,
        "one 200, one 409 «ya se canjeó»",
        once,
      );
      return once ? 0 : 1;
    } finally {
      await stop(server);
    }
  } finally {
    await shop.drop().catch(() => {});
  }
}

export const till: BenchSection = {
  name: "till",
  byDefault: true,
  onShop: false,
  async run() {
    let broken = 0;
    for (const kind of KINDS) broken += (await tillAtScale(kind)) ?? 0;
    return broken;
  },
};
