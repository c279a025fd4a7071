/** The till's coupons through the API, and a partner's sales beyond a page. */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import type { TestApi } from "#tests/support/api-server";
import { expectSpanish } from "./_helpers";
import { callAs, couponsFor, withPartnerWorld, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

describe("coupons", () => {
  it("verifies a code with or without dashes, and redeems it once", async () => {
    const [code] = await couponsFor(
      api,
      w.optionB,
      (await callAs(api, "partnerB", `/offers/${w.offerB}/`)).body.price_options[0].actual_price,
      1,
    );
    const compact = code.replace(/-/g, "").toLowerCase();
    const v = await callAs(api, "partnerB", "/verification/coupon/", { body: { code: compact } });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ code, state: "valid", offer: { uuid: w.offerB }, option: { title: "Menú para 2" } });
    expect((await callAs(api, "partnerA", "/verification/coupon/", { body: { code } })).status).toBe(404);
    expect((await callAs(api, "partnerA", `/sales/redeem/${v.body.uuid}/`, { method: "POST" })).status).toBe(404);
    const first = await callAs(api, "partnerB", `/sales/redeem/${v.body.uuid}/`, { method: "POST" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ state: "redeemed", redeemed_by: "partnerB" });
    const second = await callAs(api, "partnerB", `/sales/redeem/${v.body.uuid}/`, { method: "POST" });
    expect(second.status).toBe(409);
    expect(second.body.redeemed_at).toBe(first.body.redeemed_at);
    // «Ya canjeado el … por …»: when, and who at the till.
    expect(second.body.detail).toMatch(/ya se canjeó el \d+ de \w+ de \d{4},? (a las )?\d{1,2}:\d{2} por partnerB\.$/);
    const again = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    expect(again.body).toMatchObject({ state: "redeemed", redeemed_at: first.body.redeemed_at, redeemed_by: "partnerB" });
  });

  it("two presses at the same moment redeem once", async () => {
    const price = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.price_options[1].actual_price;
    const option = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body.price_options[1].uuid;
    const [code] = await couponsFor(api, option, price, 1);
    const { body } = await callAs(api, "partnerA", "/verification/coupon/", { body: { code } });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => callAs(api, "partnerA", `/sales/redeem/${body.uuid}/`, { method: "POST" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM coupons WHERE code = ${code} AND redeemed_at IS NOT NULL`,
    );
    expect(Number(row.n)).toBe(1);
  });

  it("redeeming brings the buyer's feedback mail forward to hours, and never queues a second one", async () => {
    const price = (await callAs(api, "partnerB", `/offers/${w.offerB}/`)).body.price_options[0].actual_price;
    const [code] = await couponsFor(api, w.optionB, price, 1);
    const [buyer] = await query<{ email: string }>(
      api.db,
      sql`
      SELECT s.email FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id WHERE c.code = ${code}`,
    );
    const feedbackMail = () =>
      query<{ send_after: string | Date }>(
        api.db,
        sql`
        SELECT send_after FROM mail_outbox WHERE kind = 'feedback-request' AND recipient = ${buyer.email.toLowerCase()}`,
      );
    const queued = await feedbackMail();
    expect(queued).toHaveLength(1);
    // The purchase asks FEEDBACK_DELAY_DAYS later (3 by default): days away.
    expect(new Date(queued[0].send_after).getTime() - Date.now()).toBeGreaterThan(2 * 86_400_000);
    const { body } = await callAs(api, "partnerB", "/verification/coupon/", { body: { code } });
    expect((await callAs(api, "partnerB", `/sales/redeem/${body.uuid}/`, { method: "POST" })).status).toBe(200);
    const after = await feedbackMail();
    expect(after).toHaveLength(1);
    const wait = new Date(after[0].send_after).getTime() - Date.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2 * 3_600_000);
  });

  it("says a code is not a coupon code, in Spanish", async () => {
    const r = await callAs(api, "partnerA", "/verification/coupon/", { body: { code: "hola" } });
    expect(r.status).toBe(400);
    expectSpanish(r.body.detail);
  });

  it("lists the partner's sales with coupon states, and exports CSV", async () => {
    const r = await callAs(api, "partnerB", `/sales/partner/?offer=${w.offerB}`);
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBeGreaterThan(0);
    expect(r.body.results.every((s: any) => s.offer.uuid === w.offerB)).toBe(true);
    expect(r.body.totals.redeemed).toBeGreaterThanOrEqual(1);
    const none = await callAs(api, "partnerB", `/sales/partner/?date_to=2020-01-01`);
    expect(none.body.results).toEqual([]);
    // A date with the right shape but no such day is bad input (400), not a database error.
    const impossible = await callAs(api, "partnerB", `/sales/partner/?date_from=2026-13-01`);
    expect(impossible.status).toBe(400);
    expectSpanish(impossible.body.detail);
    const csv = await fetch(`${api.url}/sales/partner/?format=csv`, { headers: (await import("./_partner")).as("partnerB") });
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="ventas-/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM: Excel reads the accents right
    const text = bytes.subarray(3).toString("utf8");
    expect(text.split("\r\n")[0]).toBe("Fecha de pago;Venta;Oferta;Opción;Cliente;Precio pagado;Código promocional;Cupón;Estado;Canjeado");
    expect(text).toContain("Canjeado");
    expect(text).not.toContain("Spa A");
  });
});

describe("a partner's sales beyond a page (and beyond the 5,000 rows they were once cut at)", () => {
  const N = 5_200;
  let offer: string;
  beforeAll(async () => {
    const created = await callAs(api, "partnerB", "/offers/", { body: validOffer(w.orgB) });
    offer = created.body.uuid;
    const option = created.body.price_options[0].uuid;
    // One coupon per sale, a minute apart; every 10th sale owes a refund, every 4th coupon is redeemed.
    await query(
      api.db,
      sql`WITH s AS (
            INSERT INTO sales (session_token, email, status, provider, total_cents, checkout_data, expires_at, paid_at)
            SELECT 'bulk-' || g, 'bulk@example.es', CASE WHEN g % 10 = 0 THEN 'refund_required' ELSE 'paid' END, 'sandbox', 1000,
                   '{}'::jsonb, now(), now() - g * interval '1 minute'
            FROM generate_series(1, ${N}) g RETURNING id, paid_at),
          i AS (
            INSERT INTO sale_items (sale_id, offer_id, price_option_id, quantity, unit_price_cents, paid_unit_cents)
            SELECT id, ${offer}, ${option}, 1, 1000, 1000 FROM s RETURNING id, sale_id)
          INSERT INTO coupons (sale_item_id, code, redeemed_at)
          SELECT i.id, 'BULK' || lpad((n)::text, 8, '0'), CASE WHEN n % 4 = 0 THEN now() END
          FROM (SELECT i.id, row_number() OVER (ORDER BY s.paid_at) AS n FROM i JOIN s ON s.id = i.sale_id) i`,
    );
  }, 60_000);

  it("answers a page, with totals of every coupon the filter matches", async () => {
    const first = await callAs(api, "partnerB", `/sales/partner/?offer=${offer}&page_size=100`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(N);
    expect(first.body.results).toHaveLength(100);
    // Sold counts what is still the buyers' (refunded coupons are listed, and counted apart).
    expect(first.body.totals).toEqual({ coupons: N - N / 10, refunded: N / 10, redeemed: N / 4, revenue: ((N - N / 10) * 10).toFixed(2) });
    expect(first.body.next).toBe(`/api/v0/sales/partner/?offer=${offer}&page_size=100&page=2`);
    const last = await callAs(api, "partnerB", `/sales/partner/?offer=${offer}&page_size=100&page=${N / 100}`);
    expect(last.body.results).toHaveLength(100);
    expect(last.body.next).toBeNull();
    // Newest sale first: the last page ends with the oldest coupon.
    expect(last.body.results.at(-1).code).toBe("BULK00000001");
  });

  it("staff page through the sales owing a refund, past the 500 they were once cut at", async () => {
    const first = await callAs(api, "staff", "/sales/refund_required/?page_size=100");
    expect(first.body.count).toBeGreaterThanOrEqual(N / 10);
    const last = Math.ceil(first.body.count / 100);
    const tail = await callAs(api, "staff", `/sales/refund_required/?page_size=100&page=${last}`);
    expect(tail.body.results).toHaveLength(first.body.count - (last - 1) * 100);
    expect(tail.body.next).toBeNull();
    expect((await callAs(api, "partnerB", "/sales/refund_required/")).status).toBe(403);
  });

  it("exports every coupon in the CSV, oldest sale first, each once", async () => {
    const csv = await fetch(`${api.url}/sales/partner/?format=csv&offer=${offer}`, {
      headers: (await import("./_partner")).as("partnerB"),
    });
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(N + 1);
    const codes = lines.slice(1).map((l) => l.split(";")[7]);
    expect(new Set(codes).size).toBe(N);
    expect(codes[0]).toBe("BULK00000001");
    expect(codes.at(-1)).toBe(`BULK${String(N).padStart(8, "0")}`);
  });
});
