/**
 * Races that real traffic produces: many buyers on the last ticket, the return redirect, reloads
 * and the webhook capturing one payment together, a single-use code, one buyer in several tabs.
 * On PostgreSQL these run on separate connections and really interleave; on PGlite they queue.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { sales } from "#api/db/schema";
import { sandboxSecret } from "#api/payments/registry";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "#api/payments/sandbox";
import type { PaymentProvider } from "#api/payments/types";
import { createSale } from "#api/services/sales";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import {
  approveWithoutWebhook,
  available,
  capture,
  couponCount,
  expectSpanish,
  makeOption,
  makePromo,
  newEmail,
  promoRow,
  saleStatus,
  sessionFor,
  someOffer,
  startSale,
  type Option,
} from "./_helpers";
import { activeOffer, callAs, makeWorld, png, uploadImage, validOffer } from "./_partner";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const create = (token: string) => call(api, "/sales/create/", { body: { session_token: token } });

async function salesOf(optionId: string) {
  return query<{ id: string; status: string; email: string }>(
    api.db,
    sql`SELECT DISTINCT s.id, s.status, s.email FROM sales s JOIN sale_items si ON si.sale_id = s.id WHERE si.price_option_id = ${optionId}`,
  );
}

function tally(statuses: number[]) {
  return statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
}

describe("races", () => {
  it("50 buyers on the last ticket: exactly one reservation", async () => {
    const option = await makeOption(api, { available: 1, price: "30.00" });
    const tokens: string[] = [];
    for (let i = 0; i < 50; i++) tokens.push(await sessionFor(api, [{ option }], newEmail(`ultima${i}`)));
    expect(new Set(tokens).size).toBe(50);

    const answers = await Promise.all(tokens.map(create));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: 49 });
    for (const a of answers.filter((a) => a.status === 409)) {
      expectSpanish(a.body.detail);
      expect(a.body.detail).toMatch(/agotado/);
    }
    expect(await available(api, option.uuid)).toBe(0);
    const rows = await salesOf(option.uuid);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("pending");
    const winner = answers.find((a) => a.status === 201)!;
    expect(rows[0].id).toBe(winner.body.payment.sale_id);
  });

  it("10 captures and the webhook on one approved payment: paid once, one coupon per ticket", async () => {
    const option = await makeOption(api, { available: 10, price: "11.00" });
    const payment = await startSale(api, [{ option, quantity: 3 }], newEmail("carrera"));
    await approveWithoutWebhook(api, payment.transaction_id);

    const body = JSON.stringify({
      id: `evt_race_${payment.transaction_id}`,
      type: "payment.completed",
      transaction_id: payment.transaction_id,
    });
    const webhook = call(api, "/sandbox/webhook/", {
      method: "POST",
      body,
      headers: { [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(sandboxSecret(api.config), body) },
    });
    const captures = Array.from({ length: 10 }, () => capture(api, payment));
    const [hook, ...answers] = await Promise.all([webhook, ...captures]);

    expect(hook.status).toBe(200);
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body.status).toBe("paid");
    }
    const codes = answers[0].body.items[0].coupons;
    expect(codes).toHaveLength(3);
    for (const a of answers) expect(a.body.items[0].coupons).toEqual(codes);
    expect(await couponCount(api, payment.sale_id)).toBe(3);
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await available(api, option.uuid)).toBe(7);
    const paidRows = await api.db.select().from(sales).where(eq(sales.id, payment.sale_id));
    expect(paidRows).toHaveLength(1);
  });

  it("captures racing a lapsed reservation's re-take: coupons issued once", async () => {
    const option = await makeOption(api, { available: 3 });
    const payment = await startSale(api, [{ option, quantity: 2 }], newEmail("tarde"));
    await approveWithoutWebhook(api, payment.transaction_id);
    await api.db.update(sales).set({ status: "expired" }).where(eq(sales.id, payment.sale_id));
    await api.db.execute(sql`UPDATE price_options SET available = available + 2 WHERE id = ${option.uuid}`);

    const answers = await Promise.all(Array.from({ length: 8 }, () => capture(api, payment)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(await couponCount(api, payment.sale_id)).toBe(2);
    expect(await available(api, option.uuid)).toBe(3 - 2);
  });

  it("a single-use code raced by 20 buyers: used once", async () => {
    await makePromo(api, { code: "CARRERA1", maxUses: 1, discountType: "amount", discountValue: "2.00" });
    // Spread the buyers over several offers, so that they do not queue on one stock row first.
    const options: Option[] = [];
    for (let i = 0; i < 5; i++) options.push(await makeOption(api, { available: 100, offerId: await someOffer(api, i * 3) }));
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++)
      tokens.push(await sessionFor(api, [{ option: options[i % 5], promo: ["CARRERA1"] }], newEmail(`codigo${i}`)));

    const answers = await Promise.all(tokens.map(create));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: 19 });
    for (const a of answers.filter((a) => a.status === 409)) {
      expectSpanish(a.body.detail);
      expect(a.body.detail).toMatch(/CARRERA1/);
    }
    const promo = await promoRow(api, "CARRERA1");
    expect(promo.usedCount).toBe(1);
    const uses = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM promo_code_uses WHERE promo_code_id = ${promo.id}`);
    expect(Number(uses[0].n)).toBe(1);
    // The losers' tickets were not kept either.
    const left = await Promise.all(options.map((o) => available(api, o.uuid)));
    expect(left.reduce((a, b) => a + b, 0)).toBe(5 * 100 - 1);
  });

  it("one buyer, per_customer 1, ten tabs: one reservation", async () => {
    const option = await makeOption(api, { available: 100, perCustomer: 1 });
    const email = newEmail("pestanas");
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push(await sessionFor(api, [{ option }], email));

    const answers = await Promise.all(tokens.map(create));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 1, 409: 9 });
    for (const a of answers.filter((a) => a.status === 409)) expectSpanish(a.body.detail);
    expect(await available(api, option.uuid)).toBe(99);
    const rows = await salesOf(option.uuid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", email });
  });

  it("the same session token sent ten times at once: one sale, one reservation", async () => {
    const option = await makeOption(api, { available: 5 });
    const token = await sessionFor(api, [{ option, quantity: 2 }], newEmail("doble"));
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(token)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(new Set(answers.map((a) => a.body.payment.sale_id)).size).toBe(1);
    expect(await available(api, option.uuid)).toBe(3);
    expect(await salesOf(option.uuid)).toHaveLength(1);
  });

  it("a double submit while the provider is still answering gets the same payment, not a 409", async () => {
    // A provider that takes a while to answer, as PayPal or Rapyd do: the first request has
    // committed its sale but has no redirect URL yet when the second one arrives.
    const slow: PaymentProvider = {
      name: "sandbox",
      flow: "hosted",
      async createPayment(input) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { flow: "hosted", redirectUrl: `https://pago.example/${input.transactionId}`, providerRef: `lento_${input.transactionId}` };
      },
      capturePayment: async () => {
        throw new Error("no se usa");
      },
      verifyWebhook: async () => null,
    };
    const option = await makeOption(api, { available: 5 });
    const token = await sessionFor(api, [{ option }], newEmail("lento"));
    const urls = { origin: api.origin, apiOrigin: api.origin };
    const [first, second] = await Promise.all([
      createSale(api.db, slow, token, urls, 15),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => createSale(api.db, slow, token, urls, 15)),
    ]);
    expect(second).toEqual(first);
    expect(first.payment.redirect_url).toMatch(/^https:\/\/pago\.example\//);
    expect(await available(api, option.uuid)).toBe(4);
  });
});

describe("no deadlocks between carts holding the same offers in different orders", () => {
  it("40 concurrent creates over 4 shared options in shuffled orders: only 201 or a clean 409", async () => {
    const options: Option[] = [];
    // Two with plenty of stock, two that run out part-way, so both outcomes happen.
    for (const [i, stock] of [100, 100, 15, 25].entries())
      options.push(await makeOption(api, { available: stock, offerId: await someOffer(api, 20 + i * 2) }));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const shuffled = <T>(list: T[]) =>
      list
        .map((x) => [random(), x] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, x]) => x);
    const tokens: string[] = [];
    for (let i = 0; i < 40; i++) {
      tokens.push(
        await sessionFor(
          api,
          shuffled(options).map((option) => ({ option })),
          newEmail(`orden${i}`),
        ),
      );
    }
    const answers = await Promise.all(tokens.map(create));
    const statuses = tally(answers.map((a) => a.status));
    expect(
      Object.keys(statuses).sort(),
      JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 409).map((a) => a.body)),
    ).toEqual(["201", "409"]);
    for (const a of answers.filter((a) => a.status === 409)) expect(a.body.detail).toMatch(/agotado/);
    // Nothing oversold, and what was sold is exactly what the 201s reserved.
    expect(statuses[201]).toBe(15);
    expect(await available(api, options[2].uuid)).toBe(0);
    expect(await available(api, options[3].uuid)).toBe(25 - 15);
    expect(await available(api, options[0].uuid)).toBe(100 - 15);
  });
});

describe("an offer's pictures changed from several places at once", () => {
  it("«portada» and «logo» changes, uploads and deletes together: each a 2xx or a 409, and still one cover and one logo", async () => {
    const w = await makeWorld(api);
    const created = await callAs(api, "partnerA", "/offers/", { body: validOffer(w.orgA) });
    const offer = created.body.uuid as string;
    const [photo, square] = await Promise.all([png(800, 500), png(200, 200)]);
    const photos: string[] = [];
    for (let i = 0; i < 6; i++) photos.push((await uploadImage(api, "partnerA", { offer }, photo)).body.uuid);

    const answers = await Promise.all([
      // Every gallery photo made the cover at once, twice over.
      ...[...photos.slice(1), ...photos.slice(1)].map((id) =>
        callAs(api, "partnerA", `/offers/images/${id}/`, { method: "PATCH", body: { cover: true } }),
      ),
      ...[0, 1, 2].map(() => uploadImage(api, "partnerA", { offer, cover: "true" }, photo)),
      ...[0, 1, 2].map(() => uploadImage(api, "partnerA", { offer, logo: "true" }, square)),
      // The current cover deleted twice while others take its place.
      ...[0, 1].map(() => callAs(api, "partnerA", `/offers/images/${photos[0]}/`, { method: "DELETE" })),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => (s >= 200 && s < 300) || s === 409 || s === 404),
      JSON.stringify(answers.filter((a) => a.status >= 500).map((a) => a.body)),
    ).toBe(true);
    // The second delete of one picture finds it gone: the only 404 allowed.
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(1);
    const [flags] = await query<{ covers: number; logos: number }>(
      api.db,
      sql`SELECT count(*) FILTER (WHERE cover)::int AS covers, count(*) FILTER (WHERE logo)::int AS logos FROM offer_images WHERE offer_id = ${offer}`,
    );
    expect([Number(flags.covers), Number(flags.logos)]).toEqual([1, 1]);
  });
});

describe("changes to an offer on sale, sent and reviewed at once", () => {
  it("eight saves and staff's decisions together: each a 2xx or a 409, one change waiting at most, never a 500", async () => {
    const w = await makeWorld(api);
    const offer = await activeOffer(api, "partnerA", w.orgA);
    const first = (await callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { title: "Primer título propuesto" } }))
      .body.revision;
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        callAs(api, "partnerA", `/offers/${offer.uuid}/`, { method: "PATCH", body: { title: `Título propuesto número ${i}` } }),
      ),
      callAs(api, "staff", `/offers/revisions/${first.uuid}/`, { method: "PATCH", body: { status: "approved" } }),
      callAs(api, "staff", `/offers/revisions/${first.uuid}/`, {
        method: "PATCH",
        body: { status: "rejected", review_note: "No es el momento." },
      }),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.body)),
    ).toBe(true);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    // The first change was decided once at most, and one change waits.
    expect(statuses.slice(8).filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM offer_revisions WHERE offer_id = ${offer.uuid} AND status = 'pending'`,
    );
    expect(Number(row.n)).toBe(1);
  });
});
