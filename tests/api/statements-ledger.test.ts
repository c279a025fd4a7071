/**
 * Properties of statements over random histories, against the real database: coupons sold at
 * random prices and days, redeemed, refunded and redemptions undone in any order (some with a
 * date in a month already stated), statements issued in between, under each payable moment and
 * dated commission rates. Whatever happens:
 * - every statement's lines add up to its totals, and each invoice's VAT is 21 % of its base;
 * - an issued statement never changes;
 * - a refund after a statement is issued is a line of the next one (or of its own month's, if later);
 * - a redemption undone after a statement is issued is a line of the next one;
 * - in the end, what was stated of each coupon is what its final facts make it owe.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { query } from "#api/db/client";
import { commissionRates, offers, organizations, priceOptions } from "#api/db/schema";
import { issueStatement } from "#api/services/statements";
import { rateHistory, rateOn } from "#api/services/statements/terms";
import { commissionCents, vatCents } from "#rules/commission";
import { isPayable, PAYABLE_MOMENTS, type PayableMoment } from "#rules/payable";
import { madridDayStart, monthPeriod } from "#rules/statements";
import { madridDate } from "#rules/dates";
import { startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ seed: false });
});
afterAll(() => api.close());

const SHOP = { name: "Ofertas Marketplace S.L.", tax_id: "B12345674", address: "Calle de Alcalá 1, 28014 Madrid" };
/** The months stated along the way; one more at the end states whatever happened after the last of them. */
const MONTHS = ["2025-01", "2025-02", "2025-03", "2025-04", "2025-05"];
const periods = MONTHS.map(monthPeriod);
const day = (month: number, d: number) =>
  new Date(madridDayStart(`${MONTHS[month]}-${String(d).padStart(2, "0")}`).getTime() + 10 * 3600_000);

type Op = { kind: "redeem" | "refund"; coupon: number; month: number; day: number } | { kind: "undo"; coupon: number } | { kind: "issue" };

const history = fc.record({
  moment: fc.constantFrom<PayableMoment>(...PAYABLE_MOMENTS),
  validUntil: fc.constantFrom<string | null>(null, "2025-01-20", "2025-02-10"),
  rates: fc.array(
    fc.record({
      from: fc.constantFrom("2025-01-01", "2025-01-15", "2025-02-15"),
      bp: fc.integer({ min: 0, max: 5000 }),
      fixed: fc.integer({ min: 0, max: 300 }),
    }),
    { maxLength: 2 },
  ),
  coupons: fc.array(
    fc.record({ price: fc.integer({ min: 0, max: 30_000 }), month: fc.integer({ min: 0, max: 1 }), day: fc.integer({ min: 1, max: 28 }) }),
    {
      minLength: 1,
      maxLength: 5,
    },
  ),
  ops: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constantFrom("redeem" as const, "refund" as const),
        coupon: fc.nat(4),
        month: fc.integer({ min: 0, max: 2 }),
        day: fc.integer({ min: 1, max: 28 }),
      }),
      fc.record({ kind: fc.constant("undo" as const), coupon: fc.nat(4) }),
      fc.record({ kind: fc.constant("issue" as const) }),
    ),
    { maxLength: 14 },
  ) as fc.Arbitrary<Op[]>,
});

type Totals = Record<string, number>;

async function statementOf(id: string) {
  const [row] = await query<Record<string, unknown>>(api.db, sql`SELECT * FROM statements WHERE id = ${id}`);
  const lines = await query<Record<string, unknown>>(
    api.db,
    sql`SELECT * FROM statement_lines WHERE statement_id = ${id} ORDER BY line_no`,
  );
  return { row, lines, frozen: JSON.stringify({ row, lines }) };
}

function sums(lines: Record<string, unknown>[], columns: string[]): Totals {
  return Object.fromEntries(columns.map((c) => [c, lines.reduce((n, l) => n + Number(l[c]), 0)]));
}

it("statements add up, never change, and take every later fact into the next one", async () => {
  await fc.assert(
    fc.asyncProperty(history, async (h) => {
      const [org] = await api.db
        .insert(organizations)
        .values({ name: `Casa ${randomUUID().slice(0, 8)}`, taxId: "B12345674", payableOn: h.moment })
        .returning();
      const [offer] = await api.db
        .insert(offers)
        .values({
          organizationId: org.id,
          title: "Cena",
          summary: "Cena",
          category: "restaurants",
          province: "Madrid",
          validUntil: h.validUntil,
        })
        .returning();
      const [option] = await api.db
        .insert(priceOptions)
        .values({ offerId: offer.id, title: "Para dos", actualPrice: "20.00", regularPrice: "40.00", available: 100 })
        .returning();
      for (const r of h.rates)
        await api.db.insert(commissionRates).values({ organizationId: org.id, validFrom: r.from, percentBp: r.bp, fixedCents: r.fixed });

      const coupons: { id: string; price: number; paidAt: Date }[] = [];
      for (const c of h.coupons) {
        const paidAt = day(c.month, c.day);
        const [row] = await query<{ id: string }>(
          api.db,
          sql`WITH s AS (
                INSERT INTO sales (session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at, created_at)
                VALUES (${randomUUID()}, 'prop@example.es', 'paid', 'sandbox', ${c.price}, '{}'::jsonb, ${paidAt.toISOString()}::timestamptz,
                        ${paidAt.toISOString()}::timestamptz, ${paidAt.toISOString()}::timestamptz) RETURNING id),
              i AS (INSERT INTO sale_items (sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
                    SELECT id, ${offer.id}, ${option.id}, 1, ${c.price}, ${c.price} FROM s RETURNING id)
              INSERT INTO coupons (sale_item_id, code) SELECT id, ${`P${randomUUID().slice(0, 11)}`} FROM i RETURNING id`,
        );
        coupons.push({ id: row.id, price: c.price, paidAt });
      }

      const issued: { id: string; frozen: string; month: number }[] = [];
      const redeemed = new Map<number, boolean>();
      const refunded = new Set<number>();
      /** Facts done since the last issue: the next statement must carry them (refunds: unless dated in a later month). */
      let refundsSince: { coupon: number; month: number }[] = [];
      let undoneSince = new Set<number>();
      const stated = async (couponId: string, column: string) => {
        const [r] = await query<{ n: number }>(
          api.db,
          sql`SELECT coalesce(sum(${sql.raw(column)}), 0)::int AS n FROM statement_lines WHERE coupon_id = ${couponId}`,
        );
        return Number(r.n);
      };
      const issueNext = async (last = false) => {
        const k = issued.length;
        if (k >= MONTHS.length - (last ? 0 : 1)) return;
        const wasRedeemed = new Map<number, number>();
        for (const c of undoneSince) wasRedeemed.set(c, await stated(coupons[c].id, "redeemed"));
        const result = await issueStatement(
          api.db,
          { organizationId: org.id, start: periods[k].start, end: periods[k].end },
          { shop: SHOP },
        );
        const s = result ? await statementOf(result.statement.id) : null;
        if (s) issued.push({ id: result!.statement.id, frozen: s.frozen, month: k });
        else issued.push({ id: "", frozen: "", month: k });
        const lineOf = (c: number) => s?.lines.find((l) => l.coupon_id === coupons[c].id);
        for (const r of refundsSince.filter((r) => r.month <= k))
          expect(Number(lineOf(r.coupon)?.refunded), `refund of coupon ${r.coupon} in statement ${k}`).toBe(1);
        refundsSince = refundsSince.filter((r) => r.month > k);
        for (const c of undoneSince) {
          if (!redeemed.get(c) && wasRedeemed.get(c) === 1)
            expect(Number(lineOf(c)?.redeemed), `undone redemption of coupon ${c} in statement ${k}`).toBe(-1);
        }
        undoneSince = new Set();
      };

      for (const op of h.ops) {
        if (op.kind === "issue") {
          await issueNext();
          continue;
        }
        const i = op.coupon % coupons.length;
        const c = coupons[i];
        if (op.kind === "undo") {
          if (!redeemed.get(i)) continue;
          await query(api.db, sql`UPDATE coupons SET redeemed_at = NULL WHERE id = ${c.id}`);
          redeemed.set(i, false);
          undoneSince.add(i);
          continue;
        }
        const at = new Date(Math.max(day(op.month, op.day).getTime(), c.paidAt.getTime() + 60_000));
        if (op.kind === "redeem") {
          if (redeemed.get(i) || refunded.has(i)) continue;
          await query(api.db, sql`UPDATE coupons SET redeemed_at = ${at.toISOString()}::timestamptz WHERE id = ${c.id}`);
          redeemed.set(i, true);
        } else {
          if (refunded.has(i)) continue;
          await query(api.db, sql`UPDATE coupons SET refunded_at = ${at.toISOString()}::timestamptz WHERE id = ${c.id}`);
          refunded.add(i);
          refundsSince.push({ coupon: i, month: Number(madridDate(at).slice(5, 7)) - 1 });
        }
      }
      while (issued.length < MONTHS.length) await issueNext(true);

      // Every statement adds up, and none changed after it was issued.
      const money = ["gross_cents", "commission_cents", "vat_cents", "net_cents"];
      const facts = ["sold", "refunded", "redeemed", "expired"];
      for (const { id, frozen } of issued.filter((s) => s.id)) {
        const { row, lines, frozen: now } = await statementOf(id);
        expect(now).toBe(frozen);
        const lineSums = sums(lines, [...money, ...facts]);
        for (const column of [...money, ...facts]) expect(Number(row[column]), column).toBe(lineSums[column]);
        expect(Number(row.line_count)).toBe(lines.length);
        const owed = sums(
          lines.filter((l) => Number(l.payable) > 0),
          ["commission_cents"],
        ).commission_cents;
        const givenBack = sums(
          lines.filter((l) => Number(l.payable) < 0),
          ["commission_cents"],
        ).commission_cents;
        expect([Number(row.invoice_base_cents), Number(row.rectifying_base_cents)]).toEqual([owed, givenBack]);
        expect(Number(row.invoice_vat_cents)).toBe(vatCents(owed));
        expect(Number(row.rectifying_vat_cents)).toBe(vatCents(givenBack));
        expect(row.invoice_number === null).toBe(owed === 0);
        // A line states only facts dated before the statement's end.
        for (const l of lines.filter((l) => Number(l.refunded) > 0 || Number(l.sold) > 0)) {
          const [c] = await query<{ paid_at: string; refunded_at: string | null }>(
            api.db,
            sql`SELECT s.paid_at, c.refunded_at FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id WHERE c.id = ${l.coupon_id as string}`,
          );
          const at = Number(l.refunded) > 0 ? c.refunded_at! : c.paid_at;
          expect(new Date(at).getTime()).toBeLessThan(new Date(row.period_end as string).getTime());
        }
      }

      // In the end each coupon was stated as its final facts make it.
      const rates = await rateHistory(api.db, org.id);
      const end = periods.at(-1)!.end;
      for (const [i, c] of coupons.entries()) {
        const final = {
          sold: true,
          refunded: refunded.has(i),
          redeemed: Boolean(redeemed.get(i)),
          expired:
            !redeemed.get(i) &&
            !refunded.has(i) &&
            h.validUntil !== null &&
            madridDayStart(h.validUntil).getTime() + 86_400_000 <= end.getTime(),
        };
        const owes = isPayable(h.moment, final);
        const [all] = await query<Totals>(
          api.db,
          sql`SELECT coalesce(sum(sold), 0)::int AS sold, coalesce(sum(refunded), 0)::int AS refunded, coalesce(sum(redeemed), 0)::int AS redeemed,
                     coalesce(sum(expired), 0)::int AS expired, coalesce(sum(payable), 0)::int AS payable,
                     coalesce(sum(gross_cents), 0)::int AS gross, coalesce(sum(commission_cents), 0)::int AS commission
              FROM statement_lines WHERE coupon_id = ${c.id}`,
        );
        const commission = owes ? commissionCents(c.price, rateOn(rates, madridDate(c.paidAt)).rate) : 0;
        expect(all).toEqual({
          sold: 1,
          refunded: Number(final.refunded),
          redeemed: Number(final.redeemed),
          expired: Number(final.expired),
          payable: Number(owes),
          gross: owes ? c.price : 0,
          commission,
        });
      }
    }),
    { numRuns: Number(process.env.STATEMENT_RUNS ?? 40) },
  );
}, 300_000);
