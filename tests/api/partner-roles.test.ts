/**
 * Roles within a partner, endpoint by endpoint: the owner, a manager and a cashier of the same
 * organisation (and staff) call every partner endpoint, and each answer is checked against
 * rules/partner-roles.ts. A role that may act gets the endpoint's own success; one that may not
 * gets 403 «No tienes permiso para hacer esto.», never an empty list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { query } from "#api/db/client";
import { organizationMembers } from "#api/db/schema";
import { partnerCan, type PartnerAction, type PartnerRole } from "#rules/partner-roles";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { ACTORS, couponsFor, makeWorld, newPartner, validOffer, type World } from "./_partner";

let api: TestApi;
let w: World;
type Caller = PartnerRole | "staff";
const CALLERS: Caller[] = ["owner", "manager", "cashier", "staff"];
const token: Record<Caller, string> = {} as Record<Caller, string>;
const codes: string[] = [];
let seq = 0;

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
  token.owner = ACTORS.partnerA.token;
  token.staff = ACTORS.staff.token;
  for (const role of ["manager", "cashier"] as const) {
    const account = await newPartner(api, w.orgA);
    await api.db.update(organizationMembers).set({ role }).where(eq(organizationMembers.userId, account.id));
    token[role] = account.token;
  }
  // Four a buyer (the option's limit): three buyers' worth for the rows that use one up.
  for (let i = 0; i < 3; i++) codes.push(...(await couponsFor(api, w.optionA, "59.90", 4)));
}, 120_000);
afterAll(() => api.close());

const as = (who: Caller, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(api, path, { ...init, headers: { authorization: `JWT ${token[who]}` } });
const by = "owner" as const;
/** A file answer (outside the JSON contract), read as text; a refusal is still JSON. */
const file = async (who: Caller, path: string) => {
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `JWT ${token[who]}` } });
  const text = await res.text();
  return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
};

// Targets made by the owner, one per call where the call uses it up.
const couponId = async () => (await as(by, "/verification/coupon/", { body: { code: codes.shift() } })).body.uuid as string;
const offer = async () => (await as(by, "/offers/", { body: validOffer(w.orgA) })).body.uuid as string;
const promo = async () =>
  (await as(by, "/promocodes/", { body: { code: `ROL${++seq}X`, discount_type: "amount", discount_value: "2", offer: w.offerA } })).body
    .uuid as string;
const member = async () => (await newPartner(api, w.orgA)).id;
const invitation = async () =>
  (await as(by, `/organizations/${w.orgA}/invitations/`, { body: { email: `invitada${++seq}@correo.es`, role: "cashier" } })).body
    .uuid as string;

type Row = { action: PartnerAction; name: string; ok: number; run: (who: Caller) => Promise<{ status: number; body: any }> };

const rows: Row[] = [
  {
    action: "till.redeem",
    name: "POST /verification/coupon/",
    ok: 200,
    run: (who) => as(who, "/verification/coupon/", { body: { code: codes[0] } }),
  },
  {
    action: "till.redeem",
    name: "POST /sales/redeem/{id}/",
    ok: 200,
    run: async (who) => as(who, `/sales/redeem/${await couponId()}/`, { method: "POST" }),
  },
  {
    action: "till.undo",
    name: "POST /sales/redeem/{id}/undo/ (its own redemption)",
    ok: 200,
    run: async (who) => {
      const id = await couponId();
      // Redeemed by the caller when its role may, else by the owner: the refusal must be about the role.
      await as(partnerCan(who === "staff" ? "owner" : who, "till.redeem") ? who : by, `/sales/redeem/${id}/`, { method: "POST" });
      return as(who, `/sales/redeem/${id}/undo/`, { method: "POST" });
    },
  },
  { action: "till.today", name: "GET /sales/today/", ok: 200, run: (who) => as(who, "/sales/today/") },
  { action: "till.search", name: "GET /sales/search/", ok: 200, run: (who) => as(who, "/sales/search/?q=cupon") },
  { action: "sales.read", name: "GET /sales/partner/", ok: 200, run: (who) => as(who, "/sales/partner/") },
  { action: "sales.read", name: "GET /sales/partner/?format=csv", ok: 200, run: (who) => file(who, "/sales/partner/?format=csv") },
  { action: "sales.read", name: "GET /sales/partner/per_day/", ok: 200, run: (who) => as(who, "/sales/partner/per_day/") },
  { action: "statements.read", name: "GET /statements/", ok: 200, run: (who) => as(who, "/statements/") },
  { action: "statements.read", name: "GET /organizations/{id}/terms/", ok: 200, run: (who) => as(who, `/organizations/${w.orgA}/terms/`) },
  {
    action: "statements.read",
    name: "GET /organizations/{id}/statement_preview/",
    ok: 200,
    run: (who) => as(who, `/organizations/${w.orgA}/statement_preview/`),
  },
  {
    action: "organization.write",
    name: "PUT /organizations/{id}/payout_account/",
    ok: 200,
    run: (who) => as(who, `/organizations/${w.orgA}/payout_account/`, { method: "PUT", body: { iban: "ES9121000418450200051332" } }),
  },
  {
    action: "organization.write",
    name: "PATCH /organizations/{id}/",
    ok: 200,
    run: (who) => as(who, `/organizations/${w.orgA}/`, { method: "PATCH", body: { phone: "912345678" } }),
  },
  { action: "offers.read", name: "GET /offers/", ok: 200, run: (who) => as(who, "/offers/") },
  { action: "offers.read", name: "GET /offers/{id}/", ok: 200, run: (who) => as(who, `/offers/${w.offerA}/`) },
  { action: "offers.read", name: "GET /offers/images/", ok: 200, run: (who) => as(who, `/offers/images/?offer=${w.offerA}`) },
  { action: "offers.read", name: "GET /offers/revisions/", ok: 200, run: (who) => as(who, "/offers/revisions/") },
  { action: "offers.write", name: "POST /offers/", ok: 201, run: (who) => as(who, "/offers/", { body: validOffer(w.orgA) }) },
  {
    action: "offers.write",
    name: "PATCH /offers/{id}/",
    ok: 200,
    run: async (who) =>
      as(who, `/offers/${await offer()}/`, { method: "PATCH", body: { summary: `Resumen cambiado por ${who} en la prueba.` } }),
  },
  {
    action: "offers.write",
    name: "DELETE /offers/{id}/",
    ok: 204,
    run: async (who) => as(who, `/offers/${await offer()}/`, { method: "DELETE" }),
  },
  { action: "promo-codes.read", name: "GET /promocodes/", ok: 200, run: (who) => as(who, "/promocodes/") },
  { action: "promo-codes.read", name: "GET /promocodes/{id}/", ok: 200, run: async (who) => as(who, `/promocodes/${await promo()}/`) },
  {
    action: "promo-codes.write",
    name: "POST /promocodes/",
    ok: 201,
    run: (who) =>
      as(who, "/promocodes/", { body: { code: `NUEVO${++seq}R`, discount_type: "percent", discount_value: "10", offer: w.offerA } }),
  },
  {
    action: "promo-codes.write",
    name: "PATCH /promocodes/{id}/",
    ok: 200,
    run: async (who) => as(who, `/promocodes/${await promo()}/`, { method: "PATCH", body: { discount_value: "3" } }),
  },
  {
    action: "promo-codes.write",
    name: "DELETE /promocodes/{id}/",
    ok: 204,
    run: async (who) => as(who, `/promocodes/${await promo()}/`, { method: "DELETE" }),
  },
  { action: "members.read", name: "GET /organizations/{id}/members/", ok: 200, run: (who) => as(who, `/organizations/${w.orgA}/members/`) },
  {
    action: "members.write",
    name: "PATCH /organizations/{id}/members/{user}/",
    ok: 200,
    run: async (who) => as(who, `/organizations/${w.orgA}/members/${await member()}/`, { method: "PATCH", body: { role: "manager" } }),
  },
  {
    action: "members.write",
    name: "DELETE /organizations/{id}/members/{user}/",
    ok: 204,
    run: async (who) => as(who, `/organizations/${w.orgA}/members/${await member()}/`, { method: "DELETE" }),
  },
  {
    action: "members.write",
    name: "POST /organizations/{id}/invitations/",
    ok: 201,
    run: (who) => as(who, `/organizations/${w.orgA}/invitations/`, { body: { email: `nueva${++seq}@correo.es`, role: "manager" } }),
  },
  {
    action: "members.write",
    name: "DELETE /organizations/{id}/invitations/{id}/",
    ok: 204,
    run: async (who) => as(who, `/organizations/${w.orgA}/invitations/${await invitation()}/`, { method: "DELETE" }),
  },
];

describe("roles within a partner: role × endpoint", () => {
  for (const row of rows) {
    for (const who of CALLERS) {
      const allowed = who === "staff" || partnerCan(who, row.action);
      it(`${row.name}: ${who} ${allowed ? "may" : "may not"} (${row.action})`, async () => {
        const answer = await row.run(who);
        if (allowed) expect(answer.status, JSON.stringify(answer.body)).toBe(row.ok);
        else {
          expect(answer.status, JSON.stringify(answer.body)).toBe(403);
          expect(answer.body.detail).toBe("No tienes permiso para hacer esto.");
        }
      });
    }
  }

  it("every action of the table is exercised by some endpoint", async () => {
    const { PARTNER_ACTIONS } = await import("#rules/partner-roles");
    expect(new Set(rows.map((r) => r.action))).toEqual(new Set(PARTNER_ACTIONS));
  });

  it("each member reads its own role in GET /organizations/memberships/", async () => {
    for (const role of ["owner", "manager", "cashier"] as const) {
      const { body } = await as(role, "/organizations/memberships/");
      expect(body.results).toContainEqual(expect.objectContaining({ uuid: w.orgA, role }));
    }
  });

  it("another organisation's members stay a 404 for an owner", async () => {
    expect((await as("owner", `/organizations/${w.orgB}/members/`)).status).toBe(404);
  });
});

describe("the last owner", () => {
  it("cannot be demoted or removed; with a second owner, can", async () => {
    const ownerB = ACTORS.partnerB.id;
    const asB = (path: string, init: { method?: string; body?: unknown } = {}) =>
      call(api, path, { ...init, headers: { authorization: `JWT ${ACTORS.partnerB.token}` } });
    const demote = await asB(`/organizations/${w.orgB}/members/${ownerB}/`, { method: "PATCH", body: { role: "cashier" } });
    expect(demote.status).toBe(409);
    expect(demote.body.detail).toMatch(/al menos un titular/);
    expect((await asB(`/organizations/${w.orgB}/members/${ownerB}/`, { method: "DELETE" })).status).toBe(409);
    await newPartner(api, w.orgB); // a second owner
    expect((await asB(`/organizations/${w.orgB}/members/${ownerB}/`, { method: "PATCH", body: { role: "manager" } })).status).toBe(200);
    expect(await query(api.db, sql`SELECT role FROM organization_members WHERE user_id = ${ownerB}`)).toEqual([{ role: "manager" }]);
  });
});
