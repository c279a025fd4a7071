/**
 * The statements' API, door by door: a partner reads only its own organisation's terms and
 * statements (another's is a 404), keeps its IBAN (checked by its digits, in Spanish), and can
 * neither set its commission nor its payable moment, nor issue nor mark paid: staff do.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { addDays, madridDate } from "#rules/dates";
import { IBAN_INVALID_MESSAGE } from "#rules/iban";
import { pdfText } from "#tests/support/pdf";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { as, callAs, couponsFor, makeWorld, type World } from "./_partner";

let api: TestApi;
let w: World;
/** A day in Madrid, where statements and payouts are dated, `offset` days from today. */
const day = (offset: number) => addDays(madridDate(new Date()), offset);

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
  const codes = await couponsFor(api, w.optionA, "59.90", 2);
  // Sold three days ago: a statement covers whole days that have ended.
  await query(
    api.db,
    sql`UPDATE sales s SET paid_at = now() - interval '3 days' FROM sale_items si JOIN coupons c ON c.sale_item_id = si.id
        WHERE si.sale_id = s.id AND c.code IN (${codes[0]}, ${codes[1]})`,
  );
}, 60_000);
afterAll(() => api.close());

describe("terms", () => {
  it("a member reads its own organisation's terms; another's is not found; a stranger must log in", async () => {
    expect((await callAs(api, "partnerA", `/organizations/${w.orgA}/terms/`)).status).toBe(200);
    expect((await callAs(api, "partnerB", `/organizations/${w.orgA}/terms/`)).status).toBe(404);
    expect((await callAs(api, "customer", `/organizations/${w.orgA}/terms/`)).status).toBe(403);
    expect((await callAs(api, "anonymous", `/organizations/${w.orgA}/terms/`)).status).toBe(401);
  });

  it("only staff set the commission and the payable moment", async () => {
    const rate = { valid_from: day(-30), percent_bp: 1500, fixed_cents: 50 };
    expect((await callAs(api, "partnerA", `/organizations/${w.orgA}/commission/`, { body: rate })).status).toBe(403);
    expect((await callAs(api, "partnerA", `/organizations/${w.orgA}/payable_on/`, { body: { payable_on: "sold" } })).status).toBe(403);
    const set = await callAs(api, "staff", `/organizations/${w.orgA}/commission/`, { body: rate });
    expect(set.status).toBe(200);
    expect(set.body.commission.current.label).toBe("15\u00a0% + 0,50\u00a0€ por cupón");
    const bad = await callAs(api, "staff", `/organizations/${w.orgA}/commission/`, { body: { ...rate, percent_bp: 20_000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/100/);
    const moment = await callAs(api, "staff", `/organizations/${w.orgA}/payable_on/`, { body: { payable_on: "sold" } });
    expect(moment.body.payable_on).toBe("sold");
    expect((await callAs(api, "partnerA", `/organizations/${w.orgA}/terms/`)).body.commission.current.percent_bp).toBe(1500);
  });

  it("the IBAN is checked by its digits, with a Spanish message, and shown masked; not on another's organisation", async () => {
    const wrong = await callAs(api, "partnerA", `/organizations/${w.orgA}/payout_account/`, {
      method: "PUT",
      body: { iban: "ES9121000418450200051333" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toContain(IBAN_INVALID_MESSAGE);
    const other = await callAs(api, "partnerB", `/organizations/${w.orgA}/payout_account/`, {
      method: "PUT",
      body: { iban: "ES9121000418450200051332" },
    });
    expect(other.status).toBe(404);
    const set = await callAs(api, "partnerA", `/organizations/${w.orgA}/payout_account/`, {
      method: "PUT",
      body: { iban: "es91 2100 0418 4502 0005 1332" },
    });
    expect(set.status).toBe(200);
    expect(set.body.payout_account.iban_masked).toBe("ES** **** **** **** **** 1332");
    expect(JSON.stringify(set.body)).not.toContain("0418");
  });
});

describe("statements", () => {
  let id: string;

  it("only staff issue; the same range again answers the same statement", async () => {
    const body = { organization: w.orgA, date_from: day(-30), date_to: day(-1) };
    expect((await callAs(api, "partnerA", "/statements/", { body })).status).toBe(403);
    expect((await callAs(api, "partnerA", "/statements/month/", { body: { month: "2026-01" } })).status).toBe(403);
    const issued = await callAs(api, "staff", "/statements/", { body });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    id = issued.body.uuid;
    expect(issued.body.counts.sold).toBe(2);
    // 2 × 59,90 € gross; commission 15 % + 0,50 € a coupon = 2 × 9,49 €; VAT 21 % of 18,98 € = 3,99 €.
    expect(issued.body).toMatchObject({ gross: "119.80", commission: "18.98", vat: "3.99", net: "96.83" });
    const again = await callAs(api, "staff", "/statements/", { body });
    expect(again.status).toBe(200);
    expect(again.body.uuid).toBe(id);
    const future = await callAs(api, "staff", "/statements/", { body: { organization: w.orgA, date_from: day(0), date_to: day(0) } });
    expect(future.status).toBe(409);
  });

  it("its organisation's members see it, its lines, its CSV and its PDF; another partner finds nothing", async () => {
    const mine = await callAs(api, "partnerA", "/statements/");
    expect(mine.body.results.map((s: { uuid: string }) => s.uuid)).toEqual([id]);
    expect((await callAs(api, "partnerB", "/statements/")).body.results).toEqual([]);
    expect((await callAs(api, "partnerB", `/statements/${id}/`)).status).toBe(404);
    expect((await callAs(api, "partnerB", `/statements/${id}/lines/`)).status).toBe(404);
    const lines = await callAs(api, "partnerA", `/statements/${id}/lines/`);
    expect(lines.body.count).toBe(2);
    expect(lines.body.results[0].sale_id).toMatch(/^[0-9a-f-]{36}$/);

    const csvB = await fetch(`${api.url}/statements/${id}/statement.csv`, { headers: as("partnerB") });
    expect(csvB.status).toBe(404);
    const csv = await fetch(`${api.url}/statements/${id}/statement.csv`, { headers: as("partnerA") });
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const rows = (await csv.text()).trim().split("\r\n");
    expect(rows).toHaveLength(1 + 2 + 1);
    expect(rows.at(-1)).toContain("119,80");

    const pdfB = await fetch(`${api.url}/statements/${id}/statement.pdf`, { headers: as("partnerB") });
    expect(pdfB.status).toBe(404);
    const pdf = await fetch(`${api.url}/statements/${id}/statement.pdf`, { headers: as("partnerA") });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain(mine.body.results[0].number);
    expect(text).toContain("96,83");
  });

  it("only staff mark it paid; the owner then reads «Pagada» with the transfer", async () => {
    const payout = { paid_on: day(0), transfer_reference: "TRF-2026-0001" };
    expect((await callAs(api, "partnerA", `/statements/${id}/payout/`, { body: payout })).status).toBe(403);
    expect((await callAs(api, "partnerA", `/statements/${id}/`)).body.payout.state).toBe("pending");
    const paid = await callAs(api, "staff", `/statements/${id}/payout/`, { body: payout });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const seen = await callAs(api, "partnerA", `/statements/${id}/`);
    expect(seen.body.payout).toMatchObject({ state: "paid", label: "Pagada", transfer_reference: "TRF-2026-0001" });
    expect(seen.body.payout_iban).toBeNull();
    const twice = await callAs(api, "staff", `/statements/${id}/payout/`, { body: { ...payout, transfer_reference: "OTRA" } });
    expect(twice.status).toBe(409);
  });
});
