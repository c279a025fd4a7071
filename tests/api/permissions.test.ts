/**
 * The permission matrix: every partner and staff endpoint, called by an anonymous visitor, a
 * customer, the partner who owns the object (A), a partner of another organisation (B) and staff.
 * A partner sees only its own organisations' things; anything else is 404 (it does not exist for
 * them). Endpoints for partners refuse customers with 403; staff-only ones refuse partners too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { organizationMembers, sales, users } from "#api/db/schema";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { approveWithoutWebhook, makeOption, newEmail, startSale } from "./_helpers";
import { ACTORS, callAs, couponsFor, makeWorld, png, uploadImage, validOffer, WHO, type Who, type World } from "./_partner";

let api: TestApi;
let w: World;
let coupons: string[] = [];
let seq = 0;

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
  // One coupon per caller of the redeem row (each call may use one up), two buyers' worth.
  coupons = [...(await couponsFor(api, w.optionA, "59.90", 4)), ...(await couponsFor(api, w.optionA, "59.90", 4))];
});
afterAll(() => api.close());

type Expect = Record<Who, number>;
const partnerSide = (ok: number): Expect => ({ anonymous: 401, customer: 403, partnerA: ok, partnerB: 404, staff: ok });
const listSide: Expect = { anonymous: 401, customer: 403, partnerA: 200, partnerB: 200, staff: 200 };
const staffOnly = (ok: number): Expect => ({ anonymous: 401, customer: 403, partnerA: 403, partnerB: 403, staff: ok });
const everyone = (ok: number): Expect => ({ anonymous: ok, customer: ok, partnerA: ok, partnerB: ok, staff: ok });

const offerOfA = async () => (await callAs(api, "partnerA", "/offers/", { body: validOffer(w.orgA) })).body.uuid as string;
const imageOfA = async () => (await uploadImage(api, "partnerA", { offer: w.offerA }, await png(800, 500))).body.uuid as string;
const promoOfA = async () =>
  (
    await callAs(api, "partnerA", "/promocodes/", {
      body: { code: `MATRIZ${++seq}`, discount_type: "amount", discount_value: "2", offer: w.offerA },
    })
  ).body.uuid as string;
/** A change to A's offer on sale, waiting for staff: a new title each time, so a new revision. */
const revisionOfA = async () =>
  (await callAs(api, "partnerA", `/offers/${w.offerA}/`, { method: "PATCH", body: { title: `Título propuesto número ${++seq}` } })).body
    .revision.uuid as string;
const emptyOrgOfA = async () => (await callAs(api, "partnerA", "/organizations/", { body: organization() })).body.uuid as string;
const couponOfA = async () =>
  (await callAs(api, "staff", "/verification/coupon/", { body: { code: coupons.shift() } })).body.uuid as string;

/** A sandbox sale paid for but owing its buyer the money (the sandbox gives it back). */
const owingSandboxSale = async () => {
  const option = await makeOption(api, { available: 5 });
  const payment = await startSale(api, [{ option }], newEmail("debe"));
  await approveWithoutWebhook(api, payment.transaction_id);
  await api.db.update(sales).set({ status: "refund_required" }).where(eq(sales.id, payment.sale_id));
  return payment.sale_id;
};

const freshUser = async (role: "customer" | "partner" = "customer") =>
  (
    await api.db
      .insert(users)
      .values({ email: `persona${++seq}.${Date.now()}@correo.es`, role })
      .returning()
  )[0];

const organization = () => ({
  name: `Empresa ${++seq}`,
  tax_id: "B-12345674",
  email: "hola@empresa.es",
  phone: "912345678",
  website: "empresa.es",
  province: "Madrid",
});
const promo = () => ({ code: `NUEVO${++seq}`, discount_type: "percent", discount_value: "15", offer: w.offerA });

type Row = {
  name: string;
  expect: Expect;
  /** Called once per caller; `fresh` makes a new target each time, for calls that use it up. */
  run: (who: Who) => Promise<{ status: number }>;
};

const rows: Row[] = [
  { name: "GET /offers/dictionaries/", expect: everyone(200), run: (who) => callAs(api, who, "/offers/dictionaries/") },
  { name: "GET /offers/", expect: listSide, run: (who) => callAs(api, who, "/offers/") },
  { name: "POST /offers/", expect: partnerSide(201), run: (who) => callAs(api, who, "/offers/", { body: validOffer(w.orgA) }) },
  { name: "GET /offers/{id}/", expect: partnerSide(200), run: (who) => callAs(api, who, `/offers/${w.offerA}/`) },
  {
    name: "PUT /offers/{id}/",
    expect: partnerSide(200),
    run: async (who) =>
      callAs(api, who, `/offers/${w.offerA}/`, {
        method: "PUT",
        body: validOffer(w.orgA, { price_options: (await callAs(api, "staff", `/offers/${w.offerA}/`)).body.price_options }),
      }),
  },
  {
    name: "PATCH /offers/{id}/",
    expect: partnerSide(200),
    run: (who) =>
      callAs(api, who, `/offers/${w.offerA}/`, { method: "PATCH", body: { summary: `Resumen cambiado por ${who} para la prueba.` } }),
  },
  {
    name: "DELETE /offers/{id}/",
    expect: partnerSide(204),
    run: async (who) => callAs(api, who, `/offers/${await offerOfA()}/`, { method: "DELETE" }),
  },
  { name: "GET /offers/images/", expect: partnerSide(200), run: (who) => callAs(api, who, `/offers/images/?offer=${w.offerA}`) },
  {
    name: "POST /offers/images/",
    expect: partnerSide(201),
    run: async (who) => uploadImage(api, who, { offer: w.offerA }, await png(800, 500)),
  },
  {
    name: "PATCH /offers/images/{id}/",
    expect: partnerSide(200),
    run: async (who) => callAs(api, who, `/offers/images/${await imageOfA()}/`, { method: "PATCH", body: { alt: "Texto" } }),
  },
  {
    name: "DELETE /offers/images/{id}/",
    expect: partnerSide(204),
    run: async (who) => callAs(api, who, `/offers/images/${await imageOfA()}/`, { method: "DELETE" }),
  },
  { name: "GET /offers/revisions/", expect: listSide, run: (who) => callAs(api, who, "/offers/revisions/") },
  {
    name: "PATCH /offers/revisions/{id}/",
    expect: staffOnly(200),
    run: async (who) =>
      callAs(api, who, `/offers/revisions/${await revisionOfA()}/`, {
        method: "PATCH",
        body: { status: "rejected", review_note: "Motivo de la prueba." },
      }),
  },
  {
    name: "DELETE /offers/revisions/{id}/",
    expect: partnerSide(204),
    run: async (who) => callAs(api, who, `/offers/revisions/${await revisionOfA()}/`, { method: "DELETE" }),
  },
  { name: "GET /organizations/", expect: listSide, run: (who) => callAs(api, who, "/organizations/") },
  {
    name: "POST /organizations/",
    expect: { ...listSide, partnerA: 201, partnerB: 201, staff: 201 },
    run: (who) => callAs(api, who, "/organizations/", { body: organization() }),
  },
  { name: "GET /organizations/{id}/", expect: partnerSide(200), run: (who) => callAs(api, who, `/organizations/${w.orgA}/`) },
  {
    name: "PUT /organizations/{id}/",
    expect: partnerSide(200),
    run: (who) => callAs(api, who, `/organizations/${w.orgA}/`, { method: "PUT", body: { ...organization(), name: "Restaurante A" } }),
  },
  {
    name: "PATCH /organizations/{id}/",
    expect: partnerSide(200),
    run: (who) => callAs(api, who, `/organizations/${w.orgA}/`, { method: "PATCH", body: { phone: "+34 600 000 000" } }),
  },
  {
    name: "DELETE /organizations/{id}/",
    expect: staffOnly(204),
    run: async (who) => callAs(api, who, `/organizations/${await emptyOrgOfA()}/`, { method: "DELETE" }),
  },
  { name: "GET /promocodes/", expect: listSide, run: (who) => callAs(api, who, "/promocodes/") },
  { name: "POST /promocodes/", expect: partnerSide(201), run: (who) => callAs(api, who, "/promocodes/", { body: promo() }) },
  { name: "GET /promocodes/{id}/", expect: partnerSide(200), run: async (who) => callAs(api, who, `/promocodes/${await promoOfA()}/`) },
  {
    name: "PUT /promocodes/{id}/",
    expect: partnerSide(200),
    run: async (who) => callAs(api, who, `/promocodes/${await promoOfA()}/`, { method: "PUT", body: promo() }),
  },
  {
    name: "PATCH /promocodes/{id}/",
    expect: partnerSide(200),
    run: async (who) => callAs(api, who, `/promocodes/${await promoOfA()}/`, { method: "PATCH", body: { max_uses: 3 } }),
  },
  {
    name: "DELETE /promocodes/{id}/",
    expect: partnerSide(204),
    run: async (who) => callAs(api, who, `/promocodes/${await promoOfA()}/`, { method: "DELETE" }),
  },
  { name: "GET /sales/partner/", expect: listSide, run: (who) => callAs(api, who, "/sales/partner/") },
  {
    name: "POST /verification/coupon/",
    expect: partnerSide(200),
    run: async (who) => callAs(api, who, "/verification/coupon/", { body: { code: coupons[0] } }),
  },
  {
    name: "POST /sales/redeem/{id}/",
    expect: partnerSide(200),
    run: async (who) => callAs(api, who, `/sales/redeem/${await couponOfA()}/`, { method: "POST" }),
  },
  { name: "GET /partner-leads/", expect: staffOnly(200), run: (who) => callAs(api, who, "/partner-leads/") },
  { name: "GET /sales/refund_required/", expect: staffOnly(200), run: (who) => callAs(api, who, "/sales/refund_required/") },
  {
    name: "POST /sales/refund/{id}/",
    expect: staffOnly(200),
    run: async (who) => callAs(api, who, `/sales/refund/${await owingSandboxSale()}/`, { method: "POST" }),
  },
  { name: "GET /users/", expect: staffOnly(200), run: (who) => callAs(api, who, "/users/?role=partner") },
  {
    name: "DELETE /users/{id}/",
    expect: staffOnly(204),
    run: async (who) => callAs(api, who, `/users/${(await freshUser()).id}/`, { method: "DELETE" }),
  },
  {
    name: "POST /organizations/{id}/members/",
    expect: staffOnly(201),
    run: async (who) => callAs(api, who, `/organizations/${w.orgA}/members/`, { body: { email: (await freshUser()).email } }),
  },
  {
    name: "DELETE /organizations/{id}/members/{user}/",
    // An owner manages its own members (tests/api/partner-roles.test.ts has the roles).
    expect: partnerSide(204),
    run: async (who) => {
      const user = await freshUser("partner");
      await api.db.insert(organizationMembers).values({ organizationId: w.orgA, userId: user.id });
      return callAs(api, who, `/organizations/${w.orgA}/members/${user.id}/`, { method: "DELETE" });
    },
  },
  {
    name: "POST /sales/become_partner/",
    expect: everyone(201),
    run: (who) =>
      callAs(api, who, "/sales/become_partner/", {
        body: {
          business_name: `Negocio ${who}`,
          contact_name: "Ana",
          email: `ana.${who}@negocio.es`,
          phone: "600000000",
          province: "Madrid",
          category: "services",
          message: "",
        },
      }),
  },
];

describe("permission matrix", () => {
  for (const row of rows) {
    it(row.name, async () => {
      const got: Partial<Expect> = {};
      for (const who of WHO) got[who] = (await row.run(who)).status;
      expect(got).toEqual(row.expect);
    });
  }

  it("lists show a partner only its own organisations' offers, codes, sales and organisations", async () => {
    const ids = async (who: Who, path: string) => ((await callAs(api, who, path)).body.results as { uuid: string }[]).map((r) => r.uuid);
    expect(await ids("partnerB", "/offers/")).not.toContain(w.offerA);
    expect(await ids("partnerA", "/offers/")).toContain(w.offerA);
    expect(await ids("staff", "/offers/")).toEqual(expect.arrayContaining([w.offerA, w.offerB]));
    expect(await ids("partnerB", "/organizations/")).not.toContain(w.orgA);
    expect(await ids("partnerB", `/offers/?organization=${w.orgA}`)).toEqual([]);
    const sales = (await callAs(api, "partnerB", "/sales/partner/")).body.results as { offer: { uuid: string } }[];
    expect(sales.every((s) => s.offer.uuid !== w.offerA)).toBe(true);
    const codes = (await callAs(api, "partnerB", "/promocodes/")).body.results as { offer: string }[];
    expect(codes.every((c) => c.offer === w.offerB)).toBe(true);
  });
});

describe("staff user management", () => {
  it("finds users by email and role; erasing one removes the account and anonymises their sales", async () => {
    const found = await callAs(api, "staff", `/users/?email=${encodeURIComponent(ACTORS.partnerA.email.slice(0, 12))}`);
    expect(found.body.results.map((u: { email: string }) => u.email)).toEqual([ACTORS.partnerA.email]);
    expect((await callAs(api, "staff", "/users/?role=jefe")).status).toBe(400);

    const person = await freshUser();
    const [sale] = await api.db.select({ id: sales.id }).from(sales).limit(1);
    await api.db.update(sales).set({ userId: person.id, email: person.email }).where(eq(sales.id, sale.id));
    expect((await callAs(api, "staff", `/users/${person.id}/`, { method: "DELETE" })).status).toBe(204);
    expect(await api.db.select().from(users).where(eq(users.id, person.id))).toEqual([]);
    const [after] = await api.db.select().from(sales).where(eq(sales.id, sale.id));
    expect(after.email).toMatch(/^borrado-.*@ofertas\.invalid$/);
    expect(after.userId).toBeNull();
    expect((await callAs(api, "staff", `/users/${ACTORS.staff.id}/`, { method: "DELETE" })).status).toBe(409);
    expect((await callAs(api, "staff", `/users/${person.id}/`, { method: "DELETE" })).status).toBe(404);
  });
});
