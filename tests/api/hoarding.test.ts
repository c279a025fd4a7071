/**
 * No free oracle, no free hoarding: bounded orders, promo-code guesses counted wherever they are
 * made, caps on unpaid reservations that a real buyer never pays for, and the sweep's purge.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { checkoutSessions, paymentTransactions, sales } from "#api/db/schema";
import { limits } from "#api/rate-limit";
import { purgeStaleCheckoutData } from "#api/services/sales";
import {
  CREATES_PER_ADDRESS,
  MAX_UNPAID_SALES_PER_ADDRESS,
  MAX_UNPAID_SALES_PER_EMAIL,
  maxUnpaidTicketsOfOption,
  PROMO_CODE_CHECKS,
  VALIDATES_PER_ADDRESS,
} from "#rules/limits";
import { MAX_CART_ITEMS, MAX_PROMO_CODES } from "#contract/sales";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { available, expectSpanish, makeOption, newEmail, orderBody, saleStatus, sessionFor, startSale, type Option } from "./_helpers";

let api: TestApi;
let option: Option;
beforeAll(async () => {
  api = await startTestApi();
  option = await makeOption(api, { available: 1000 });
});
afterAll(() => api.close());

let addressSeq = 0;
/** A documentation address (RFC 5737) of its own per test, so tests do not share counters. */
const newAddress = () => `198.51.100.${++addressSeq}`;
const from = (address: string) => ({ "X-Forwarded-For": address });

const validateFrom = (address: string, body: unknown) => call(api, "/sales/validate/", { body, headers: from(address) });
const createFrom = (address: string, token: string) =>
  call(api, "/sales/create/", { body: { session_token: token }, headers: from(address) });

describe("validate is bounded by the cart's own limits", () => {
  it(`more than ${MAX_CART_ITEMS} items is a Spanish 400`, async () => {
    const options = await Promise.all(Array.from({ length: MAX_CART_ITEMS + 1 }, () => makeOption(api, { available: 5 })));
    const { status, body } = await validateFrom(
      newAddress(),
      orderBody(
        options.map((o) => ({ option: o })),
        newEmail(),
      ),
    );
    expect(status).toBe(400);
    expect(body.errors[0].error_text).toBe(`Como máximo ${MAX_CART_ITEMS} ofertas por pedido.`);
  });

  it(`more than ${MAX_PROMO_CODES} distinct codes across the items is a Spanish 400`, async () => {
    const a = await makeOption(api, { available: 5 });
    const codes = ["C1", "C2", "C3", "C4", "C5", "C6"];
    const body = orderBody(
      [
        { option, promo: codes.slice(0, 3) },
        { option: a, promo: codes.slice(3) },
      ],
      newEmail(),
    );
    const answer = await validateFrom(newAddress(), body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { error_text: string }) => e.error_text)).toContain(
      `Puedes aplicar como máximo ${MAX_PROMO_CODES} códigos promocionales.`,
    );
  });
});

describe("unknown promo codes count against the promo-code limit", () => {
  it("validate spends one point per unknown code, shared with apply-promocode", async () => {
    const address = newAddress();
    const perCall = MAX_PROMO_CODES;
    const calls = Math.floor(PROMO_CODE_CHECKS.points / perCall);
    for (let i = 0; i < calls; i++) {
      const codes = Array.from({ length: perCall }, (_, n) => `NOEXISTE${i}X${n}`);
      const { status } = await validateFrom(address, orderBody([{ option, promo: codes }], newEmail()));
      expect(status, `call ${i}`).toBe(400); // the codes do not exist: a normal answer
    }
    const over = await validateFrom(address, orderBody([{ option, promo: ["OTROMAS"] }], newEmail()));
    expect(over.status).toBe(429);
    expectSpanish(over.body.detail);
    const apply = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "BIENVENIDA10" }, headers: from(address) });
    expect(apply.status).toBe(429);
    // A known code is not a guess, and another address has its own budget.
    const other = newAddress();
    const fine = await validateFrom(other, orderBody([{ option, promo: ["BIENVENIDA10"] }], newEmail()));
    expect(fine.status).toBe(200);
  });

  it("apply-promocode calls count against validate's unknown codes too", async () => {
    const address = newAddress();
    for (let i = 0; i < PROMO_CODE_CHECKS.points; i++) {
      await call(api, "/public/offers/apply-promocode/", { body: { promo_code: `ADIVINA${i}` }, headers: from(address) });
    }
    const over = await validateFrom(address, orderBody([{ option, promo: ["UNOMAS"] }], newEmail()));
    expect(over.status).toBe(429);
    // With no unknown code, the buyer's order still validates.
    const plain = await validateFrom(address, orderBody([{ option }], newEmail()));
    expect(plain.status).toBe(200);
  });
});

describe("validate and create are rate limited per client address", () => {
  it(`${VALIDATES_PER_ADDRESS.points} validates a minute, then a Spanish 429 with Retry-After`, async () => {
    const address = newAddress();
    for (let i = 0; i < VALIDATES_PER_ADDRESS.points; i++) {
      expect((await validateFrom(address, orderBody([{ option }], newEmail()))).status).toBe(200);
    }
    const over = await validateFrom(address, orderBody([{ option }], newEmail()));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expectSpanish(over.body.detail);
  });

  it(`${CREATES_PER_ADDRESS.points} creates per ${CREATES_PER_ADDRESS.durationSec / 60} minutes, even when each is cancelled`, async () => {
    const address = newAddress();
    for (let i = 0; i < CREATES_PER_ADDRESS.points; i++) {
      const token = await sessionFor(api, [{ option }], newEmail());
      const created = await createFrom(address, token);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const p = created.body.payment;
      expect((await call(api, `/sales/cancel/${p.sale_id}/`, { body: { transaction_id: p.transaction_id } })).status).toBe(200);
    }
    const token = await sessionFor(api, [{ option }], newEmail());
    const over = await createFrom(address, token);
    expect(over.status).toBe(429);
    expectSpanish(over.body.detail);
  });
});

describe("unpaid reservations are capped, and a real buyer is never blocked by them", () => {
  it(`one address holds at most ${MAX_UNPAID_SALES_PER_ADDRESS} unpaid reservations; other buyers go on buying`, async () => {
    const hoarder = newAddress();
    const hoard = await makeOption(api, { available: 50 });
    for (let i = 0; i < MAX_UNPAID_SALES_PER_ADDRESS; i++) {
      const token = await sessionFor(api, [{ option: hoard, quantity: 5 }], newEmail(`acaparador${i}`));
      expect((await createFrom(hoarder, token)).status).toBe(201);
    }
    const token = await sessionFor(api, [{ option: hoard, quantity: 5 }], newEmail("acaparador-mas"));
    const refused = await createFrom(hoarder, token);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/reservas sin pagar/);
    expect(await available(api, hoard.uuid)).toBe(50 - 5 * MAX_UNPAID_SALES_PER_ADDRESS);
    const buyer = await sessionFor(api, [{ option: hoard, quantity: 5 }], newEmail("comprador-real"));
    expect((await createFrom(newAddress(), buyer)).status).toBe(201);
  });

  it(`over ${MAX_UNPAID_SALES_PER_EMAIL} unpaid orders of one email, the oldest gives its tickets back; the newest always goes through`, async () => {
    const email = newEmail("victima");
    const stock = await makeOption(api, { available: 20 });
    const attacker = newAddress();
    const first: string[] = [];
    for (let i = 0; i < MAX_UNPAID_SALES_PER_EMAIL; i++) {
      const created = await createFrom(attacker, await sessionFor(api, [{ option: stock, quantity: 2 }], email));
      expect(created.status).toBe(201);
      first.push(created.body.payment.sale_id);
    }
    // The real owner of the email buys from elsewhere: not refused.
    const mine = await createFrom(newAddress(), await sessionFor(api, [{ option: stock, quantity: 2 }], email));
    expect(mine.status).toBe(201);
    expect(await saleStatus(api, first[0])).toBe("expired");
    expect(await saleStatus(api, first[1])).toBe("pending");
    expect(await saleStatus(api, mine.body.payment.sale_id)).toBe("pending");
    expect(await available(api, stock.uuid)).toBe(20 - 2 * MAX_UNPAID_SALES_PER_EMAIL);
  });

  it("a 5-ticket option cannot be held whole: unpaid, one address or one email keeps at most half of it, rounded up", async () => {
    expect([5, 4, 3, 2, 1].map(maxUnpaidTicketsOfOption)).toEqual([3, 2, 2, 1, 1]);
    const small = await makeOption(api, { available: 5 });
    const [hoarder, elsewhere] = [newAddress(), newAddress()];
    const email = newEmail("acapara-poco");
    const reserve = async (address: string, quantity: number, who = email) =>
      createFrom(address, await sessionFor(api, [{ option: small, quantity }], who));
    // 4 + 1 took all five before: now the 4 alone are refused, in Spanish, and nothing is held.
    const four = await reserve(hoarder, 4);
    expect(four.status).toBe(409);
    expect(four.body.detail).toMatch(/^Quedan pocas entradas de «.*»: cada comprador puede reservar sin pagar como máximo 3 entradas\./);
    expect(await available(api, small.uuid)).toBe(5);
    expect((await reserve(hoarder, 3)).status).toBe(201);
    // One more from the same address under another email, or from the same email elsewhere: refused.
    expect((await reserve(hoarder, 1, newEmail("otra-del-acaparador"))).status).toBe(409);
    expect((await reserve(elsewhere, 1)).status).toBe(409);
    // Someone else still buys, and the option is not sold out.
    expect((await reserve(newAddress(), 1, newEmail("otra-compradora"))).status).toBe(201);
    expect(await available(api, small.uuid)).toBe(1);
  });

  it("a replaced order that is paid after all still gets its tickets (expired, not cancelled)", async () => {
    const email = newEmail("tardio");
    const stock = await makeOption(api, { available: 10 });
    const payments = [];
    for (let i = 0; i <= MAX_UNPAID_SALES_PER_EMAIL; i++) payments.push(await startSale(api, [{ option: stock }], email));
    expect(await saleStatus(api, payments[0].sale_id)).toBe("expired");
    await api.db.update(paymentTransactions).set({ status: "approved" }).where(eq(paymentTransactions.id, payments[0].transaction_id));
    const captured = await call(api, `/sales/capture/${payments[0].sale_id}/`, { body: { transaction_id: payments[0].transaction_id } });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body.status).toBe("paid");
  });
});

describe("the sweep purges what nobody needs", () => {
  it("deletes expired checkout sessions and released sales past retention, keeping the rest", async () => {
    limits.reset();
    const fresh = await sessionFor(api, [{ option }], newEmail());
    const stale = await sessionFor(api, [{ option }], newEmail());
    await api.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(checkoutSessions.token, stale));

    const old = await startSale(api, [{ option }], newEmail("viejo"));
    const oldApproved = await startSale(api, [{ option }], newEmail("viejo-aprobado"));
    const recent = await startSale(api, [{ option }], newEmail("reciente"));
    for (const p of [old, oldApproved, recent])
      await call(api, `/sales/cancel/${p.sale_id}/`, { body: { transaction_id: p.transaction_id } });
    const longAgo = new Date(Date.now() - 40 * 24 * 3600_000);
    await api.db
      .update(sales)
      .set({ createdAt: longAgo })
      .where(sql`${sales.id} IN (${old.sale_id}, ${oldApproved.sale_id})`);
    await api.db.update(paymentTransactions).set({ status: "approved" }).where(eq(paymentTransactions.id, oldApproved.transaction_id));
    const paid = await startSale(api, [{ option }], newEmail("pagado"));
    await api.db.update(sales).set({ createdAt: longAgo, status: "paid" }).where(eq(sales.id, paid.sale_id));

    const purged = await purgeStaleCheckoutData(api.db);
    expect(purged.sessions).toBeGreaterThanOrEqual(1);
    expect(purged.sales).toBeGreaterThanOrEqual(1);
    const tokens = (await api.db.select({ t: checkoutSessions.token }).from(checkoutSessions)).map((r) => r.t);
    expect(tokens).toContain(fresh);
    expect(tokens).not.toContain(stale);
    const left = await query<{ id: string }>(
      api.db,
      sql`SELECT id FROM sales WHERE id IN (${old.sale_id}, ${oldApproved.sale_id}, ${recent.sale_id}, ${paid.sale_id})`,
    );
    expect(left.map((r) => r.id).sort()).toEqual([oldApproved.sale_id, recent.sale_id, paid.sale_id].sort());
    // Items and transactions went with the sale.
    expect(await query(api.db, sql`SELECT 1 FROM payment_transactions WHERE sale_id = ${old.sale_id}`)).toEqual([]);
  });
});
