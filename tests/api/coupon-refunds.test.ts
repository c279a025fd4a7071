/**
 * «Solicitar devolución» of one coupon (POST /sales/purchase/{sale}/refund/): automatic through
 * the sale's provider (the sandbox here) within the withdrawal window, the staff queue outside
 * it, refused once redeemed; once per coupon, and never both redeemed and refunded, however the
 * till and the buyer race. On PostgreSQL the races run on separate connections.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { mailOutbox, saleRefunds, sales } from "#api/db/schema";
import { WITHDRAWAL_DAYS } from "#rules/refunds";
import { call, type TestApi } from "#tests/support/api-server";
import { available, buy, expectSpanish, newEmail } from "./_helpers";
import { ACTORS, as, callAs, withPartnerWorld, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

type Bought = { saleId: string; sig: string; codes: string[] };

/** A guest's paid purchase of `quantity` coupons of partner A's offer (59,90 € each). */
async function bought(quantity = 2): Promise<Bought> {
  const { purchase } = await buy(api, [{ option: { uuid: w.optionA, price: "59.90" }, quantity }], newEmail("devolucion"));
  return { saleId: purchase.sale_id, sig: purchase.coupons_sig, codes: purchase.items[0].coupons };
}

const ask = (b: Pick<Bought, "saleId" | "sig">, coupon: string, headers: Record<string, string> = {}) =>
  call(api, `/sales/purchase/${b.saleId}/refund/`, { body: { coupon, ...(b.sig ? { sig: b.sig } : {}) }, headers });

async function couponRow(code: string) {
  const [row] = await query<{ id: string; redeemed_at: Date | null; refunded_at: Date | null; refund_requested_at: Date | null }>(
    api.db,
    sql`SELECT id, redeemed_at, refunded_at, refund_requested_at FROM coupons WHERE code = ${code}`,
  );
  return row;
}

const redeem = async (code: string) => callAs(api, "partnerA", `/sales/redeem/${(await couponRow(code)).id}/`, { method: "POST" });
const providerRefunds = (saleId: string) => api.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId));
const refundMails = (saleId: string) =>
  query<{ dedupe_key: string; data: unknown }>(
    api.db,
    sql`SELECT m.dedupe_key, m.data FROM mail_outbox m JOIN coupon_refund_requests r ON m.data->>'request_id' = r.id::text
        WHERE m.kind = 'coupon-refund' AND r.sale_id = ${saleId}`,
  );

describe("a refund within the window", () => {
  it("gives the coupon's price back through the provider, once; the coupon reads refunded and its ticket is on sale again", async () => {
    const b = await bought(2);
    const before = await available(api, w.optionA);
    const { status, body } = await ask(b, b.codes[0].toLowerCase().replace(/-/g, ""));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ sale_id: b.saleId, code: b.codes[0], outcome: "refunded", refunded: "59.90" });
    expectSpanish(body.detail);
    expect(body.detail).toContain("59,90");
    expect(await providerRefunds(b.saleId)).toMatchObject([
      { status: "refunded", requestedCents: 5990, refundedCents: 5990, provider: "sandbox" },
    ]);
    expect((await couponRow(b.codes[0])).refunded_at).not.toBeNull();
    expect((await couponRow(b.codes[1])).refunded_at).toBeNull();
    expect(await available(api, w.optionA)).toBe(before + 1);

    // What the coupons page reads: refunded, no button; the other coupon still offers it.
    const page = await call(api, `/sales/purchase/${b.saleId}/?sig=${b.sig}`);
    const statuses = page.body.items[0].coupon_status;
    expect(statuses.find((c: { code: string }) => c.code === b.codes[0])).toMatchObject({
      state: "refunded",
      refundable: false,
      refund: { outcome: "refunded", refunded: "59.90" },
    });
    expect(statuses.find((c: { code: string }) => c.code === b.codes[1])).toMatchObject({ state: "valid", refundable: true, refund: null });

    // Asking again does nothing new: the same answer, no second refund, no second mail.
    const again = await ask(b, b.codes[0]);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: "refunded", refunded: "59.90" });
    expect(await providerRefunds(b.saleId)).toHaveLength(1);
    expect(await available(api, w.optionA)).toBe(before + 1);
    expect((await refundMails(b.saleId)).map((m) => m.dedupe_key)).toEqual([
      expect.stringMatching(/^coupon-refund:[0-9a-f-]{36}:refunded$/),
    ]);

    // A refunded coupon is never redeemed.
    const till = await redeem(b.codes[0]);
    expect(till.status).toBe(409);
    expect(till.body.detail).toContain("reembolsado");
  });

  it("the logged-in owner asks without a link; anyone else, or a wrong link, learns nothing", async () => {
    const b = await bought(1);
    await api.db.update(sales).set({ userId: ACTORS.customer.id }).where(eq(sales.id, b.saleId));
    const anonymous = await ask({ saleId: b.saleId, sig: "" }, b.codes[0]);
    expect(anonymous.status).toBe(404);
    const stranger = await ask({ saleId: b.saleId, sig: "" }, b.codes[0], as("partnerB"));
    expect(stranger.status).toBe(404);
    const forged = await ask({ saleId: b.saleId, sig: `${b.sig.slice(0, -2)}xx` }, b.codes[0]);
    expect(forged.status).toBe(404);
    expectSpanish(forged.body.detail);
    const notACode = await ask(b, "hola");
    expect(notACode.status).toBe(400);
    expectSpanish(notACode.body.detail);
    const otherSale = await bought(1);
    const wrongSale = await ask(b, otherSale.codes[0]);
    expect(wrongSale.status).toBe(404);
    expect(await providerRefunds(b.saleId)).toHaveLength(0);

    const owner = await ask({ saleId: b.saleId, sig: "" }, b.codes[0], as("customer"));
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(owner.body.outcome).toBe("refunded");
    // «Mis pedidos» reads it too.
    const history = await callAs(api, "customer", "/customer/purchases/?page_size=50");
    const coupon = history.body.results
      .flatMap((p: { items: { coupons: { code: string }[] }[] }) => p.items.flatMap((i) => i.coupons))
      .find((c: { code: string }) => c.code === b.codes[0]);
    expect(coupon).toMatchObject({ state: "refunded", refundable: false, refund: { outcome: "refunded" } });
  });
});

describe("refused and reviewed", () => {
  it("a redeemed coupon is refused in Spanish, with no call to the provider, and told by mail once", async () => {
    const b = await bought(1);
    expect((await redeem(b.codes[0])).status).toBe(200);
    const { status, body } = await ask(b, b.codes[0]);
    expect(status).toBe(409);
    expect(body).toMatchObject({ outcome: "refused", refunded: null, detail: "Este cupón ya se ha canjeado: no se puede devolver." });
    expect(await providerRefunds(b.saleId)).toHaveLength(0);
    expect((await ask(b, b.codes[0])).status).toBe(409);
    expect((await refundMails(b.saleId)).map((m) => m.dedupe_key)).toEqual([expect.stringMatching(/:refused$/)]);
    expect((await couponRow(b.codes[0])).refunded_at).toBeNull();
  });

  it(`after ${WITHDRAWAL_DAYS} days it goes to staff: the coupon is held; staff approve (money back) or refuse (usable again)`, async () => {
    const late = await bought(2);
    await api.db.execute(sql`UPDATE sales SET paid_at = now() - interval '20 days' WHERE id = ${late.saleId}`);
    const first = await ask(late, late.codes[0]);
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe("review");
    expect(first.body.detail).toContain(`más de ${WITHDRAWAL_DAYS} días`);
    expect(await providerRefunds(late.saleId)).toHaveLength(0);
    const held = await redeem(late.codes[0]);
    expect(held.status).toBe(409);
    expect(held.body.detail).toBe("El comprador ha pedido la devolución de este cupón: no se puede canjear.");
    const second = await ask(late, late.codes[1]);
    expect(second.body.outcome).toBe("review");

    expect((await call(api, "/sales/refund_requests/", { headers: as("customer") })).status).toBe(403);
    const queue = await call(api, "/sales/refund_requests/?page_size=100", { headers: as("staff") });
    expect(queue.status).toBe(200);
    const mine = queue.body.results.filter((r: { sale_id: string }) => r.sale_id === late.saleId);
    expect(mine).toHaveLength(2);
    const [a, b] = late.codes.map((code) => mine.find((r: { code: string }) => r.code === code));
    expect(a).toMatchObject({ status: "review", amount: "59.90", provider: "sandbox" });

    const approved = await call(api, `/sales/refund_requests/${a.id}/`, { body: { decision: "approve" }, headers: as("staff") });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe("refunded");
    expect((await couponRow(late.codes[0])).refunded_at).not.toBeNull();
    const twice = await call(api, `/sales/refund_requests/${a.id}/`, { body: { decision: "approve" }, headers: as("staff") });
    expect(twice.status).toBe(409);
    expect(await providerRefunds(late.saleId)).toHaveLength(1);

    const noReason = await call(api, `/sales/refund_requests/${b.id}/`, { body: { decision: "refuse", reason: "" }, headers: as("staff") });
    expect(noReason.status).toBe(400);
    const refused = await call(api, `/sales/refund_requests/${b.id}/`, {
      body: { decision: "refuse", reason: "El local confirma que la reserva ya se disfrutó." },
      headers: as("staff"),
    });
    expect(refused.status).toBe(200);
    expect((await ask(late, late.codes[1])).body).toMatchObject({
      outcome: "refused",
      detail: "El local confirma que la reserva ya se disfrutó.",
    });
    expect((await redeem(late.codes[1])).status).toBe(200);

    const keys = (await refundMails(late.saleId)).map((m) => m.dedupe_key.split(":").at(-1)).sort();
    expect(keys).toEqual(["refunded", "refused", "review", "review"]);
    const outbox = await api.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "coupon-refund"));
    expect(outbox.every((m) => m.recipient.includes("devolucion"))).toBe(true);
  });
});

describe("races", () => {
  it("the till and the buyer on the same coupon, 8 times: exactly one wins each time", async () => {
    const b = await bought(4);
    const c = await bought(4);
    const codes = [...b.codes.map((code) => ({ code, sale: b })), ...c.codes.map((code) => ({ code, sale: c }))];
    const outcomes = await Promise.all(
      codes.map(async ({ code, sale }, i) => {
        // Half start with the till, half with the buyer.
        const [first, second] = i % 2 ? [() => redeem(code), () => ask(sale, code)] : [() => ask(sale, code), () => redeem(code)];
        const [x, y] = await Promise.all([first(), second()]);
        const [till, buyer] = i % 2 ? [x, y] : [y, x];
        return { code, till: till.status, buyer: buyer.status, outcome: buyer.body.outcome };
      }),
    );
    for (const o of outcomes) {
      const row = await couponRow(o.code);
      const redeemed = row.redeemed_at !== null;
      const refunded = row.refunded_at !== null;
      expect(redeemed !== refunded, JSON.stringify(o)).toBe(true);
      if (redeemed) expect(o).toMatchObject({ till: 200, buyer: 409, outcome: "refused" });
      else expect(o).toMatchObject({ till: 409, buyer: 200, outcome: "refunded" });
    }
    const refundedCount = outcomes.filter((o) => o.outcome === "refunded").length;
    const calls = [...(await providerRefunds(b.saleId)), ...(await providerRefunds(c.saleId))];
    expect(calls.filter((r) => r.status === "refunded")).toHaveLength(refundedCount);
  });

  it("the buyer asks twice at once (two tabs): one refund at the provider", async () => {
    const b = await bought(1);
    const before = await available(api, w.optionA);
    const answers = await Promise.all([ask(b, b.codes[0]), ask(b, b.codes[0]), ask(b, b.codes[0])]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(["refunded", "processing"]).toContain(a.body.outcome);
    }
    expect(answers.some((a) => a.body.outcome === "refunded")).toBe(true);
    expect(await providerRefunds(b.saleId)).toHaveLength(1);
    expect(await available(api, w.optionA)).toBe(before + 1);
    expect(await refundMails(b.saleId)).toHaveLength(1);
  });
});
