/**
 * Statements of what a partner is owed, against the real database: a month of sales bought,
 * redeemed and refunded through the API gives a statement whose totals are the hand computation
 * below, its PDF and CSV read back, issuing twice gives one statement, and what happens after
 * it is issued lands in the next one. The database itself refuses to change an issued statement.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import type { Scope } from "#api/services/access";
import { markCouponsRefunded } from "#api/services/coupon-facts";
import {
  getStatement,
  issueMonthlyStatements,
  issueStatement,
  issueStatementFor,
  listStatements,
  markStatementPaid,
  partnerTerms,
  previewStatement,
  setCommissionRate,
  setLegalIdentity,
  setPayableMoment,
  setPayoutAccount,
  statementCsv,
  statementLines,
  statementPdf,
} from "#api/services/statements";
import { monthPeriod } from "#rules/statements";
import { pdfText } from "#tests/support/pdf";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { ACTORS, callAs, couponsFor, makeWorld, type World } from "./_partner";
import { buy, newEmail } from "./_helpers";

let api: TestApi;
let w: World;
let staff: Scope;
let partnerA: Scope;
let partnerB: Scope;
const SHOP = { name: "Ofertas Marketplace S.L.", tax_id: "B12345674", address: "Calle de Alcalá 1, 28014 Madrid" };

// The sales below happen today; their month is stated as the 1st of the next one would.
const today = new Date();
const month = today.toISOString().slice(0, 7);
const { end: monthEnd } = monthPeriod(month);
const afterMonth = new Date(monthEnd.getTime() + 8 * 3600_000);
const nextMonthEnd = monthPeriod(new Date(monthEnd.getTime() + 86_400_000).toISOString().slice(0, 7)).end;

type Sold = { option: string; price: string; codes: string[] };
let menu2: Sold; // 3 × 59,90 €
let menu4: Sold; // 1 × 109,00 €
let spaB: string; // organisation B's coupon, paid on sale

async function couponId(code: string): Promise<string> {
  const [row] = await query<{ id: string }>(api.db, sql`SELECT id FROM coupons WHERE code = ${code}`);
  return row.id;
}

async function redeem(code: string) {
  const found = await callAs(api, "partnerA", "/verification/coupon/", { body: { code } });
  expect(found.status).toBe(200);
  const r = await callAs(api, "partnerA", `/sales/redeem/${found.body.uuid}/`, { method: "POST" });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function frozen(statementId: string) {
  const [row] = await query(api.db, sql`SELECT * FROM statements WHERE id = ${statementId}`);
  const lines = await query(api.db, sql`SELECT * FROM statement_lines WHERE statement_id = ${statementId} ORDER BY line_no`);
  return JSON.stringify({ row, lines });
}

async function text(stream: AsyncIterable<string>) {
  let out = "";
  for await (const chunk of stream) out += chunk;
  return out;
}

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
  staff = { actor: { id: ACTORS.staff.id, email: ACTORS.staff.email, role: "staff" }, staff: true, orgs: null };
  partnerA = { actor: { id: ACTORS.partnerA.id, email: ACTORS.partnerA.email, role: "partner" }, staff: false, orgs: [w.orgA] };
  partnerB = { actor: { id: ACTORS.partnerB.id, email: ACTORS.partnerB.email, role: "partner" }, staff: false, orgs: [w.orgB] };
  const offer = (await callAs(api, "partnerA", `/offers/${w.offerA}/`)).body;
  const two = offer.price_options.find((o: { title: string }) => o.title === "Menú para 2");
  const four = offer.price_options.find((o: { title: string }) => o.title === "Menú para 4");
  const buyer = newEmail("liquidacion");
  const first = await buy(api, [{ option: { uuid: two.uuid, price: two.actual_price }, quantity: 2 }], buyer);
  const second = await buy(
    api,
    [
      { option: { uuid: two.uuid, price: two.actual_price }, quantity: 1 },
      { option: { uuid: four.uuid, price: four.actual_price }, quantity: 1 },
    ],
    newEmail("liquidacion"),
  );
  const item = (purchase: typeof second.purchase, title: string) =>
    purchase.items.find((i: { option_title: string }) => i.option_title === title);
  menu2 = {
    option: two.uuid,
    price: two.actual_price,
    codes: [...first.purchase.items[0].coupons, ...item(second.purchase, "Menú para 2").coupons],
  };
  menu4 = { option: four.uuid, price: four.actual_price, codes: item(second.purchase, "Menú para 4").coupons };
  [spaB] = await couponsFor(api, w.optionB, "59.90", 1);
}, 60_000);
afterAll(() => api.close());

describe("terms", () => {
  it("staff set a dated commission; the owner sees it, its legal identity and its IBAN masked", async () => {
    const before = await partnerTerms(api.db, partnerA, w.orgA);
    expect(before.commission.current).toMatchObject({ percent_bp: 2000, fixed_cents: 0, standard: true, label: "20\u00a0%" });
    expect(before.payable_on).toBe("redeemed");
    expect(before.payout_account).toBeNull();

    await expect(
      setCommissionRate(api.db, partnerA, w.orgA, { valid_from: "2026-01-01", percent_bp: 100, fixed_cents: 0 }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await setCommissionRate(api.db, staff, w.orgA, { valid_from: "2026-01-01", percent_bp: 1500, fixed_cents: 30 });
    await setCommissionRate(api.db, staff, w.orgA, { valid_from: "2099-01-01", percent_bp: 1200, fixed_cents: 0 });
    await setLegalIdentity(api.db, partnerA, w.orgA, {
      legal_name: "Restaurante A Sociedad Limitada",
      tax_id: "B12345674",
      address: "Calle Mayor 1, 28013 Madrid",
    });
    const terms = await setPayoutAccount(api.db, partnerA, w.orgA, "ES9121000418450200051332");
    expect(terms.commission.current).toMatchObject({ percent_bp: 1500, fixed_cents: 30, standard: false, valid_from: "2026-01-01" });
    expect(terms.commission.current.label).toBe("15\u00a0% + 0,30\u00a0€ por cupón");
    expect(terms.commission.upcoming.map((r) => r.valid_from)).toEqual(["2099-01-01"]);
    expect(terms.commission.history).toHaveLength(2);
    expect(terms.payout_account?.iban_masked).toBe("ES** **** **** **** **** 1332");
    expect(terms.organization.legal_name).toBe("Restaurante A Sociedad Limitada");
    // Another organisation's terms are not found, as if they did not exist.
    await expect(partnerTerms(api.db, partnerB, w.orgA)).rejects.toMatchObject({ status: 404 });
    // Organisation B is paid on sale, at the standard commission.
    await expect(setPayableMoment(api.db, partnerB, w.orgB, "sold")).rejects.toMatchObject({ status: 403 });
    expect((await setPayableMoment(api.db, staff, w.orgB, "sold")).payable_on_label).toBe("Al venderse");
    await setPayoutAccount(api.db, partnerB, w.orgB, "DE89 3704 0044 0532 0130 00");
  });
});

describe("a month of sales", () => {
  let issuedThisMonth = 0;
  let statementId: string;
  let number: string;
  let firstPdf: Uint8Array;

  it("gives the statement of the hand computation", async () => {
    // 2 of the 3 menus for two and the menu for four are redeemed; the third menu for two is refunded.
    await redeem(menu2.codes[0]);
    await redeem(menu2.codes[1]);
    await redeem(menu4.codes[0]);
    expect(await markCouponsRefunded(api.db, [await couponId(menu2.codes[2])])).toHaveLength(1);

    const issued = await issueMonthlyStatements(api.db, month, { shop: SHOP, now: afterMonth });
    // Both organisations of the world sold this month, and the demo customer's purchase of last week may too.
    expect(issued).toMatchObject({ failed: 0, nothing: 0 });
    expect(issued.issued).toBeGreaterThanOrEqual(2);
    issuedThisMonth = issued.issued;
    const { results } = await listStatements(api.db, partnerA, {}, { page: 1, pageSize: 10 });
    expect(results).toHaveLength(1);
    const s = await getStatement(api.db, partnerA, results[0].uuid);
    statementId = s.uuid;
    number = s.number;
    expect(s.number).toMatch(/^L-\d{4}-\d{6}$/);
    expect(s.counts).toEqual({ sold: 4, refunded: 1, redeemed: 3, expired: 0 });
    expect(s.line_count).toBe(4);
    // Paid on redemption: 59,90 + 59,90 + 109,00 = 228,80 €. Commission 15 % + 0,30 € a coupon:
    // 8,985 → 8,99 + 0,30 = 9,29 (twice) and 16,35 + 0,30 = 16,65: 35,23 €. VAT 21 % of 35,23 =
    // 7,3983 → 7,40 €. Net 228,80 − 35,23 − 7,40 = 186,17 €.
    expect({ gross: s.gross, commission: s.commission, vat: s.vat, net: s.net, payable: s.payable }).toEqual({
      gross: "228.80",
      commission: "35.23",
      vat: "7.40",
      net: "186.17",
      payable: "186.17",
    });
    expect(s.invoice).toMatchObject({ base: "35.23", vat: "7.40", total: "42.63" });
    expect(s.invoice?.number).toMatch(/^C-\d{4}-\d{6}$/);
    expect(s.rectifying_invoice).toBeNull();
    expect(s.partner).toEqual({
      name: "Restaurante A Sociedad Limitada",
      tax_id: "B12345674",
      address: "Calle Mayor 1, 28013 Madrid",
      iban_masked: "ES** **** **** **** **** 1332",
    });
    expect(s.payout).toMatchObject({ state: "pending", label: "Pendiente de pago" });
    expect(s.payout_iban).toBeNull(); // the partner sees it masked only
    expect((await getStatement(api.db, staff, s.uuid)).payout_iban).toBe("ES9121000418450200051332");

    const lines = (await statementLines(api.db, partnerA, s.uuid, { page: 1, pageSize: 10 })).results;
    expect(lines.map((l) => [l.coupon.code, l.facts_label, l.net])).toEqual(
      expect.arrayContaining([
        [menu2.codes[0], "Vendido · Canjeado", "48.66"],
        [menu2.codes[2], "Vendido · Reembolsado", "0.00"],
        [menu4.codes[0], "Vendido · Canjeado", "88.85"],
      ]),
    );
    const sum = (pick: (l: (typeof lines)[number]) => string) => lines.reduce((n, l) => n + Math.round(Number(pick(l)) * 100), 0);
    expect([sum((l) => l.gross), sum((l) => l.commission), sum((l) => l.vat), sum((l) => l.net)]).toEqual([22880, 3523, 740, 18617]);
  });

  it("issuing it again gives the same statement", async () => {
    const before = await frozen(statementId);
    const again = await issueMonthlyStatements(api.db, month, { shop: SHOP, now: afterMonth });
    expect(again).toMatchObject({ issued: 0, already: issuedThisMonth });
    const { start } = monthPeriod(month);
    const direct = await issueStatement(api.db, { organizationId: w.orgA, start, end: monthEnd }, { shop: SHOP, now: afterMonth });
    expect(direct).toMatchObject({ created: false, statement: { id: statementId, number } });
    expect((await listStatements(api.db, partnerA, {}, { page: 1, pageSize: 10 })).count).toBe(1);
    expect(await frozen(statementId)).toBe(before);
    // An overlapping range on demand is refused, in Spanish.
    await expect(
      issueStatementFor(
        api.db,
        staff,
        { organization: w.orgA, date_from: `${month}-02`, date_to: `${month}-20` },
        { shop: SHOP, now: afterMonth },
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("reads back as a PDF with both parties, the invoice and every line", async () => {
    const s = await getStatement(api.db, partnerA, statementId);
    const pdf = await statementPdf(api.db, partnerA, statementId);
    firstPdf = pdf;
    const textOf = (await pdfText(pdf)).replace(/\u00a0/g, " ");
    for (const expected of [
      `Liquidación ${s.number}`,
      "Ofertas Marketplace S.L.",
      "NIF/CIF: B12345674",
      "Calle de Alcalá 1, 28014 Madrid",
      "Restaurante A Sociedad Limitada",
      "Calle Mayor 1, 28013 Madrid",
      "ES** **** **** **** **** 1332",
      "Al canjearse",
      `Factura ${s.invoice!.number}`,
      "Base imponible",
      "35,23 €",
      "7,40 €",
      "42,63 €",
      "A pagar al socio",
      "186,17 €",
      menu2.codes[2],
      menu4.codes[0],
    ]) {
      expect(textOf).toContain(expected);
    }
    // The same statement makes the same file: nothing needs keeping.
    expect(Buffer.from(await statementPdf(api.db, partnerA, statementId)).equals(Buffer.from(pdf))).toBe(true);
    await expect(statementPdf(api.db, partnerB, statementId)).rejects.toMatchObject({ status: 404 });
  });

  it("reads back as a CSV whose lines add up to its totals row", async () => {
    const csv = await text(statementCsv(api.db, partnerA, statementId));
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const rows = csv.slice(1).trim().split("\r\n");
    expect(rows[0].split(";").slice(0, 3)).toEqual(["Liquidación", "Línea", "Fecha de venta"]);
    expect(rows).toHaveLength(1 + 4 + 1);
    const cents = (cell: string) => Math.round(Number(cell.replace(/\./g, "").replace(",", ".")) * 100);
    const net = rows.slice(1, -1).reduce((n, r) => n + cents(r.split(";").at(-1)!), 0);
    expect(net).toBe(18617);
    expect(rows.at(-1)!.split(";").at(-1)).toBe("186,17");
  });

  it("staff mark it paid once; the owner sees it paid", async () => {
    const paidOn = afterMonth.toISOString().slice(0, 10);
    const input = { paid_on: paidOn, transfer_reference: "TRF-2026-0001" };
    await expect(markStatementPaid(api.db, partnerA, statementId, input, afterMonth)).rejects.toMatchObject({ status: 403 });
    await expect(markStatementPaid(api.db, staff, statementId, { ...input, paid_on: "2099-01-01" }, afterMonth)).rejects.toMatchObject({
      status: 400,
    });
    const paid = await markStatementPaid(api.db, staff, statementId, input, afterMonth);
    expect(paid.payout).toEqual({ state: "paid", label: "Pagada", paid_on: paidOn, transfer_reference: "TRF-2026-0001" });
    expect((await markStatementPaid(api.db, staff, statementId, input, afterMonth)).payout.state).toBe("paid");
    await expect(markStatementPaid(api.db, staff, statementId, { ...input, transfer_reference: "OTRA" }, afterMonth)).rejects.toMatchObject(
      {
        status: 409,
      },
    );
    expect((await getStatement(api.db, partnerA, statementId)).payout.state).toBe("paid");
    // The document stays the one issued: being paid is the statement page's news, not the PDF's.
    expect(Buffer.from(await statementPdf(api.db, partnerA, statementId)).equals(Buffer.from(firstPdf))).toBe(true);
    expect((await partnerTerms(api.db, partnerA, w.orgA)).pending_payout).toBe("0.00");
    expect(
      (await listStatements(api.db, staff, { state: "pending" }, { page: 1, pageSize: 10 })).results.map((r) => r.organization.uuid),
    ).toEqual([w.orgB]);
  });

  it("a redemption undone after issue is a line of the next statement, with a rectifying invoice", async () => {
    const before = await frozen(statementId);
    // The till's «Deshacer»: the coupon is valid again.
    await query(api.db, sql`UPDATE coupons SET redeemed_at = NULL, redeemed_by = NULL WHERE code = ${menu2.codes[1]}`);
    const preview = await previewStatement(api.db, partnerA, w.orgA, afterMonth);
    expect(preview).toMatchObject({ line_count: 1, counts: { sold: 0, refunded: 0, redeemed: -1, expired: 0 }, gross: "-59.90" });

    const after = new Date(nextMonthEnd.getTime() + 3600_000);
    const next = await issueStatement(api.db, { organizationId: w.orgA, start: monthEnd, end: nextMonthEnd }, { shop: SHOP, now: after });
    const s = await getStatement(api.db, partnerA, next!.statement.id);
    // −59,90 gross, −9,29 commission given back, VAT −1,95 (21 % of 9,29 = 1,9509): net −48,66.
    expect({ gross: s.gross, commission: s.commission, vat: s.vat, net: s.net, payable: s.payable }).toEqual({
      gross: "-59.90",
      commission: "-9.29",
      vat: "-1.95",
      net: "-48.66",
      payable: "-48.66",
    });
    expect(s.invoice).toBeNull();
    expect(s.rectifying_invoice).toMatchObject({
      base: "-9.29",
      vat: "-1.95",
      rectifies: [(await getStatement(api.db, partnerA, statementId)).invoice!.number],
    });
    expect(s.payout).toMatchObject({ state: "to_offset" });
    expect(await frozen(statementId)).toBe(before);

    // Redeemed again later: paid again, and the negative balance is set off.
    await redeem(menu2.codes[1]);
    const later = monthPeriod(new Date(nextMonthEnd.getTime() + 86_400_000).toISOString().slice(0, 7)).end;
    const third = await issueStatement(
      api.db,
      { organizationId: w.orgA, start: nextMonthEnd, end: later },
      { shop: SHOP, now: new Date(later.getTime() + 3600_000) },
    );
    const t = await getStatement(api.db, partnerA, third!.statement.id);
    expect({ net: t.net, carried: t.carried, payable: t.payable }).toEqual({ net: "48.66", carried: "-48.66", payable: "0.00" });
    expect(t.payout.state).toBe("nothing");
    expect((await getStatement(api.db, partnerA, s.uuid)).payout).toMatchObject({ state: "carried", label: `Compensada en ${t.number}` });
  });

  it("a refund after issue is a line of the next statement", async () => {
    const [first] = (await listStatements(api.db, partnerB, {}, { page: 1, pageSize: 10 })).results;
    // Paid on sale: the coupon was owed in its month, 59,90 − 11,98 (20 %) − 2,52 (VAT) = 45,40 €.
    expect(first).toMatchObject({ counts: { sold: 1, refunded: 0, redeemed: 0, expired: 0 }, net: "45.40" });
    const before = await frozen(first.uuid);
    expect(await markCouponsRefunded(api.db, [await couponId(spaB)])).toHaveLength(1);
    // A refunded coupon is not redeemed at the till.
    const found = await callAs(api, "partnerB", "/verification/coupon/", { body: { code: spaB } });
    expect(found.body.state).toBe("refunded");
    expect((await callAs(api, "partnerB", `/sales/redeem/${found.body.uuid}/`, { method: "POST" })).status).toBe(409);

    const next = await issueStatement(
      api.db,
      { organizationId: w.orgB, start: monthEnd, end: nextMonthEnd },
      { shop: SHOP, now: new Date(nextMonthEnd.getTime() + 1) },
    );
    const s = await getStatement(api.db, partnerB, next!.statement.id);
    expect(s.counts).toEqual({ sold: 0, refunded: 1, redeemed: 0, expired: 0 });
    expect({ gross: s.gross, commission: s.commission, vat: s.vat, net: s.net }).toEqual({
      gross: "-59.90",
      commission: "-11.98",
      vat: "-2.52",
      net: "-45.40",
    });
    expect(s.rectifying_invoice?.rectifies).toEqual([(await getStatement(api.db, partnerB, first.uuid)).invoice!.number]);
    expect(await frozen(first.uuid)).toBe(before);
  });
});

describe("the database keeps issued statements as they are", () => {
  it("refuses to change or delete a statement, its lines or its payout", async () => {
    const [s] = await query<{ id: string }>(api.db, sql`SELECT statement_id AS id FROM statement_payouts LIMIT 1`);
    const attempts = [
      sql`UPDATE statements SET net_cents = 0, gross_cents = commission_cents + vat_cents WHERE id = ${s.id}`,
      sql`DELETE FROM statements WHERE id = ${s.id}`,
      sql`UPDATE statement_lines SET gross_cents = gross_cents WHERE statement_id = ${s.id}`,
      sql`DELETE FROM statement_lines WHERE statement_id = ${s.id}`,
      sql`INSERT INTO statement_lines SELECT statement_id, 99, organization_id, coupon_id, sale_id, code, sold_at, offer_title, option_title,
            redeemed_at, refunded_at, valid_until, sold, refunded, redeemed, expired, payable, percent_bp, fixed_cents, gross_cents,
            commission_cents, vat_cents, net_cents FROM statement_lines WHERE statement_id = ${s.id} LIMIT 1`,
      sql`UPDATE statement_payouts SET transfer_reference = 'OTRA' WHERE statement_id = ${s.id}`,
      sql`DELETE FROM statement_payouts WHERE statement_id = ${s.id}`,
      sql`TRUNCATE statement_lines CASCADE`,
    ];
    for (const attempt of attempts) {
      const refused = await api.db.execute(attempt).then(
        () => "done",
        (error: { cause?: { message?: string }; message: string }) => error.cause?.message ?? error.message,
      );
      expect(refused).toMatch(/no se modifica|no admite|registro de dinero/);
    }
  });
});
