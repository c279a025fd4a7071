import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_PASSWORD_HASH, DEMO_STAFF } from "#api/db/demo-accounts";
import { eq, sql } from "drizzle-orm";
import { sales, users } from "#api/db/schema";
import { query } from "#api/db/client";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { pdfText } from "#tests/support/pdf";
import { buy, makeOption, newEmail, someOffer } from "./_helpers";

let api: TestApi;
const tokens: Record<"a" | "b" | "staff", string> = { a: "", b: "", staff: "" };
const emails = { a: "", b: "" };

const as = (who: keyof typeof tokens): Record<string, string> => ({ Authorization: `JWT ${tokens[who]}` });
const login = async (email: string, password = "ofertas-demo-2026") =>
  (await call(api, "/auth/jwt/create/", { body: { email, password } })).body.access as string;

beforeAll(async () => {
  api = await startTestApi({ env: { JWT_REFRESH_REUSE_GRACE_SECONDS: "0" } });
  emails.a = newEmail("cliente-a");
  emails.b = newEmail("cliente-b");
  // Two customers with proven addresses and the demo password (precomputed hash: fast).
  await api.db.insert(users).values([
    { email: emails.a, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() },
    { email: emails.b, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() },
  ]);
  tokens.a = await login(emails.a);
  tokens.b = await login(emails.b);
  tokens.staff = await login(DEMO_STAFF.email);
});
afterAll(() => api.close());

describe("favourites", () => {
  it("toggle adds and removes; the list is newest first; another customer's list is separate", async () => {
    const [x, y] = [await someOffer(api, 1), await someOffer(api, 2)];
    expect((await call(api, `/customer/favorites/${x}/toggle/`, { method: "POST", headers: as("a") })).body).toMatchObject({
      uuid: x,
      is_favorite: true,
    });
    await call(api, `/customer/favorites/${y}/toggle/`, { method: "POST", headers: as("a") });
    const list = await call(api, "/customer/favorites/", { headers: as("a") });
    expect(list.status).toBe(200);
    expect(list.body.map((o: { uuid: string }) => o.uuid)).toEqual([y, x]);
    expect(list.headers.get("cache-control")).toContain("no-store");
    expect((await call(api, "/customer/favorites/", { headers: as("b") })).body).toEqual([]);
    const off = await call(api, `/customer/favorites/${y}/toggle/`, { method: "POST", headers: as("a") });
    expect(off.body.is_favorite).toBe(false);
    expect(off.body.uuids).toEqual([x]);
  });

  it("sync-list merges: adds what is missing, keeps the rest, ignores unknown offers", async () => {
    const [x, y, z] = [await someOffer(api, 3), await someOffer(api, 4), await someOffer(api, 5)];
    await call(api, `/customer/favorites/${x}/toggle/`, { method: "POST", headers: as("b") });
    const synced = await call(api, "/customer/favorites/sync-list/", {
      body: { uuids: [y, z, y, "00000000-0000-4000-8000-000000000000"] },
      headers: as("b"),
    });
    expect(synced.status).toBe(200);
    expect(new Set(synced.body.uuids)).toEqual(new Set([x, y, z]));
    const again = await call(api, "/customer/favorites/sync-list/", { body: { uuids: [] }, headers: as("b") });
    expect(new Set(again.body.uuids)).toEqual(new Set([x, y, z]));
  });

  it("refuses bad ids and unknown offers in Spanish, and anonymous callers with 401", async () => {
    expect((await call(api, "/customer/favorites/nope/toggle/", { method: "POST", headers: as("a") })).status).toBe(400);
    const unknown = await call(api, "/customer/favorites/00000000-0000-4000-8000-000000000000/toggle/", {
      method: "POST",
      headers: as("a"),
    });
    expect(unknown.status).toBe(404);
    expect((await call(api, "/customer/favorites/sync-list/", { body: { uuids: ["x"] }, headers: as("a") })).status).toBe(400);
    expect((await call(api, "/customer/favorites/")).status).toBe(401);
  });
});

describe("server cart", () => {
  const item = (offerUuid: string, priceOptionUuid: string) => ({
    offerUuid,
    priceOptionUuid,
    ticketsCount: 2,
    savedPrice: "20.00",
    slotId: null,
    gift: false,
  });

  it("stores the cookie's shape, per customer, and refuses a malformed cart", async () => {
    const option = await makeOption(api, { available: 5 });
    expect((await call(api, "/customer/cart/", { headers: as("a") })).body).toEqual({ items: [], promoCodes: [] });
    const cart = {
      items: [item(option.offerId, option.uuid)],
      promoCodes: [{ promo_code: "AHORRA5", discount_type: "amount", discount_value: "5", offer_uuid: null }],
    };
    expect((await call(api, "/customer/cart/update/", { body: cart, headers: as("a") })).status).toBe(200);
    expect((await call(api, "/customer/cart/", { headers: as("a") })).body).toEqual(cart);
    expect((await call(api, "/customer/cart/", { headers: as("b") })).body).toEqual({ items: [], promoCodes: [] });
    const bad = await call(api, "/customer/cart/update/", {
      body: { items: [{ ...item(option.offerId, option.uuid), ticketsCount: 0 }], promoCodes: [] },
      headers: as("a"),
    });
    expect(bad.status).toBe(400);
    expect((await call(api, "/customer/cart/update/", { body: cart })).status).toBe(401);
  });
});

describe("anonymous sessions (clients without cookies)", () => {
  it("keep favourites and a cart under a token, which merge into the account at login", async () => {
    const created = await call(api, "/session/anonymous/", { method: "POST" });
    expect(created.status).toBe(201);
    const anon = { Authorization: `JWT ${created.body.token}` };
    const session = await call(api, "/customer/session/", { headers: anon });
    expect(session.body).toEqual({ is_authenticated: false, anonymous: true, user: null });
    const offer = await someOffer(api, 7);
    await call(api, `/customer/favorites/${offer}/toggle/`, { method: "POST", headers: anon });
    const option = await makeOption(api, { available: 5 });
    const cart = { items: [item(option.offerId, option.uuid)], promoCodes: [] };
    await call(api, "/customer/cart/update/", { body: cart, headers: anon });
    expect((await call(api, "/customer/favorites/", { headers: anon })).body.map((o: { uuid: string }) => o.uuid)).toEqual([offer]);
    // An anonymous token is no identity: purchases and the account stay closed.
    expect((await call(api, "/customer/purchases/", { headers: anon })).status).toBe(401);
    expect((await call(api, "/auth/users/me/", { headers: anon })).status).toBe(401);

    // Customer B logs in from that client: what the token kept joins B's account, once.
    const pair = await call(api, "/auth/jwt/create/", {
      body: { email: emails.b, password: "ofertas-demo-2026", anonymous_token: created.body.token },
    });
    expect(pair.status).toBe(200);
    const b = { Authorization: `JWT ${pair.body.access}` };
    expect((await call(api, "/customer/favorites/", { headers: b })).body.map((o: { uuid: string }) => o.uuid)).toContain(offer);
    expect((await call(api, "/customer/cart/", { headers: b })).body.items.map((i: { offerUuid: string }) => i.offerUuid)).toContain(
      option.offerId,
    );
    expect((await call(api, "/customer/favorites/", { headers: anon })).body).toEqual([]);
    // A forged anonymous token merges nothing and does not break the login.
    expect(
      (await call(api, "/auth/jwt/create/", { body: { email: emails.a, password: "ofertas-demo-2026", anonymous_token: "falso" } })).status,
    ).toBe(200);
  });

  function item(offerUuid: string, priceOptionUuid: string) {
    return { offerUuid, priceOptionUuid, ticketsCount: 1, savedPrice: "20.00", slotId: null, gift: false };
  }
});

describe("purchases", () => {
  it("lists the account's purchases newest first, paginated, with coupons and their state", async () => {
    const option = await makeOption(api, { available: 20 });
    // Reserved while logged in, with any email: the account's (pending until paid).
    const token = (
      await call(api, "/sales/validate/", {
        body: {
          items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
          checkout_data: { subs_agreement: true, email: newEmail(), need_receipt: false, for_present: [] },
        },
      })
    ).body.checkout_data.session_token;
    const reserved = await call(api, "/sales/create/", { body: { session_token: token }, headers: as("a") });
    expect(reserved.status).toBe(201);
    // A guest purchase with A's email, not logged in.
    const { purchase: older } = await buy(api, [{ option, quantity: 2 }], emails.a);
    const list1 = await call(api, "/customer/purchases/", { headers: as("a") });
    expect(list1.status).toBe(200);
    expect(list1.body.results.find((p: { sale_id: string }) => p.sale_id === reserved.body.payment.sale_id)).toMatchObject({
      status: "pending",
    });
    // A guest purchase with customer A's email joins A's account at A's next login (email proven).
    expect(list1.body.results.map((p: { sale_id: string }) => p.sale_id)).not.toContain(older.sale_id);
    tokens.a = await login(emails.a);
    const list = await call(api, "/customer/purchases/", { headers: as("a") });
    const ids = list.body.results.map((p: { sale_id: string }) => p.sale_id);
    expect(ids).toContain(older.sale_id);
    const shown = list.body.results.find((p: { sale_id: string }) => p.sale_id === older.sale_id);
    expect(shown).toMatchObject({ status: "paid", total: expect.stringMatching(/^\d+\.\d{2}$/), email: emails.a });
    expect(shown.items[0].coupons).toHaveLength(2);
    expect(shown.items[0].coupons[0]).toEqual({
      uuid: expect.any(String),
      code: expect.any(String),
      state: "valid",
      refundable: true,
      refund: null,
    });

    const page1 = await call(api, "/customer/purchases/?page=1&page_size=1", { headers: as("a") });
    expect(page1.body.results).toHaveLength(1);
    expect(page1.body.next).toContain("page=2");
    expect(page1.body.count).toBe(list.body.count);
    const dates = list.body.results.map((p: { created_at: string }) => p.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect((await call(api, "/customer/purchases/?page=abc", { headers: as("a") })).status).toBe(400);
  });

  it("a guest purchase whose email nobody has proven stays out of every account", async () => {
    const option = await makeOption(api, { available: 5 });
    const stranger = newEmail("desconocido");
    await buy(api, [{ option }], stranger);
    expect(
      (await call(api, "/customer/purchases/", { headers: as("b") })).body.results.every((p: { email: string }) => p.email !== stranger),
    ).toBe(true);
  });
});

describe("permission matrix: anonymous / customer A / customer B / staff", () => {
  it("another customer's purchases and coupons are not shown; anonymous answers 401", async () => {
    const option = await makeOption(api, { available: 10 });
    await buy(api, [{ option, quantity: 1 }], emails.a);
    tokens.a = await login(emails.a); // claims the guest purchase above
    const mine = (await call(api, "/customer/purchases/", { headers: as("a") })).body.results[0];
    const listB = (await call(api, "/customer/purchases/", { headers: as("b") })).body.results;
    expect(listB.map((p: { sale_id: string }) => p.sale_id)).not.toContain(mine.sale_id);
    expect((await call(api, "/customer/purchases/")).status).toBe(401);
  });

  it("POST /sales/download_coupon/ answers the voucher PDF to its owner only: B, staff and unknown coupons get the same 404", async () => {
    const option = await makeOption(api, { available: 10 });
    await buy(api, [{ option, quantity: 1 }], emails.a);
    tokens.a = await login(emails.a); // claims the guest purchase above
    const purchase = (await call(api, "/customer/purchases/", { headers: as("a") })).body.results[0];
    const coupon = purchase.items[0].coupons[0];
    const download = (who?: keyof typeof tokens, uuid = coupon.uuid) =>
      fetch(`${api.url}/sales/download_coupon/`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(who ? as(who) : {}) },
        body: JSON.stringify({ coupon: uuid }),
      });

    const mine = await download("a");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("application/pdf");
    expect(mine.headers.get("content-disposition")).toContain(coupon.code);
    expect(await pdfText(Buffer.from(await mine.arrayBuffer()))).toContain(coupon.code);

    const other = await download("b");
    const unknown = await download("b", "00000000-0000-4000-8000-000000000000");
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    // Another customer's coupon answers exactly like one that does not exist.
    expect(await other.text()).toBe(await unknown.text());
    expect((await download("staff")).status).toBe(404);
    expect((await download()).status).toBe(401);
    expect((await download("b", "no-es-un-uuid")).status).toBe(400);
  });

  it("the demo customer sees the seeded purchase with its coupons", async () => {
    const token = await login(DEMO_CUSTOMER.email);
    const list = await call(api, "/customer/purchases/", { headers: { Authorization: `JWT ${token}` } });
    expect(list.body.count).toBeGreaterThanOrEqual(1);
    expect(list.body.results.at(-1).items[0].coupons[0].state).toBe("valid");
  });
});

describe("GET /sales/reserve_exists/{id}/", () => {
  it("tells the customer about their own unpaid reservation only", async () => {
    const option = await makeOption(api, { available: 10, offerId: await someOffer(api, 12) });
    const validate = await call(api, "/sales/validate/", {
      body: {
        items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
        checkout_data: { subs_agreement: true, email: emails.b, need_receipt: false, for_present: [] },
      },
    });
    const created = await call(api, "/sales/create/", {
      body: { session_token: validate.body.checkout_data.session_token },
      headers: as("b"),
    });
    expect(created.status).toBe(201);
    const mine = await call(api, `/sales/reserve_exists/${option.offerId}/`, { headers: as("b") });
    expect(mine.body).toMatchObject({
      exists: true,
      sale_id: created.body.payment.sale_id,
      redirect_url: created.body.payment.redirect_url,
    });
    expect((await call(api, `/sales/reserve_exists/${option.offerId}/`, { headers: as("a") })).body).toEqual({ exists: false });
    expect((await call(api, `/sales/reserve_exists/${option.offerId}/`)).status).toBe(401);
    expect((await call(api, "/sales/reserve_exists/nope/", { headers: as("b") })).status).toBe(400);
    await call(api, `/sales/cancel/${created.body.payment.sale_id}/`, { body: { transaction_id: created.body.payment.transaction_id } });
    expect((await call(api, `/sales/reserve_exists/${option.offerId}/`, { headers: as("b") })).body).toEqual({ exists: false });
  });
});

describe("marketing subscription of the account", () => {
  it("subscribing needs the consent said out loud; unsubscribing needs nothing; anonymous is 401", async () => {
    expect((await call(api, "/customer/subscription/", { headers: as("b") })).body).toEqual({ subscribed: false });
    const noConsent = await call(api, "/customer/subscription/", { body: { subscribed: true }, headers: as("b") });
    expect(noConsent.status).toBe(400);
    expect(noConsent.body.detail).toMatch(/casilla/);
    expect((await call(api, "/customer/subscription/", { body: { subscribed: true, consent: true }, headers: as("b") })).body).toEqual({
      subscribed: true,
    });
    const [row] = await query<{ consent_source: string }>(
      api.db,
      sql`SELECT consent_source FROM mail_subscriptions WHERE email = ${emails.b}`,
    );
    expect(row.consent_source).toBe("account");
    expect((await call(api, "/customer/subscription/", { headers: as("b") })).body).toEqual({ subscribed: true });
    expect((await call(api, "/customer/subscription/", { body: { subscribed: false }, headers: as("b") })).body).toEqual({
      subscribed: false,
    });
    expect((await call(api, "/customer/subscription/")).status).toBe(401);
    expect((await call(api, "/customer/subscription/", { body: { subscribed: "sí" }, headers: as("b") })).status).toBe(400);
  });
});

describe("users: staff or self", () => {
  it("GET /auth/users/ lists everyone to staff and only yourself to a customer; another user's record is 404", async () => {
    const all = await call(api, "/auth/users/", { headers: as("staff") });
    expect(all.body.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining([emails.a, emails.b, DEMO_CUSTOMER.email]));
    const mine = await call(api, "/auth/users/", { headers: as("a") });
    expect(mine.body.map((u: { email: string }) => u.email)).toEqual([emails.a]);
    const b = all.body.find((u: { email: string }) => u.email === emails.b);
    expect((await call(api, `/auth/users/${b.id}/`, { headers: as("a") })).status).toBe(404);
    expect((await call(api, `/auth/users/${b.id}/`, { headers: as("staff") })).body.email).toBe(emails.b);
    expect((await call(api, `/auth/users/${b.id}/`)).status).toBe(401);
    expect((await call(api, "/users/", { headers: as("a") })).status).toBeGreaterThanOrEqual(403);
  });

  it("a customer may change their names but not their role; staff may", async () => {
    const me = await call(api, "/auth/users/me/", { method: "PATCH", body: { first_name: "Ana" }, headers: as("a") });
    expect(me.body.first_name).toBe("Ana");
    expect((await call(api, "/auth/users/me/", { method: "PATCH", body: { role: "staff" }, headers: as("a") })).status).toBe(400);
    expect((await call(api, "/auth/users/me/", { method: "PUT", body: { first_name: "Ana" }, headers: as("a") })).status).toBe(400);
    expect(
      (await call(api, `/auth/users/${me.body.id}/`, { method: "PATCH", body: { role: "partner" }, headers: as("staff") })).body.role,
    ).toBe("partner");
    await call(api, `/auth/users/${me.body.id}/`, { method: "PATCH", body: { role: "customer" }, headers: as("staff") });
    tokens.a = await login(emails.a);
  });

  it("DELETE /auth/users/me/ erases the person and keeps their purchases anonymised", async () => {
    const email = newEmail("borrar");
    await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() });
    const option = await makeOption(api, { available: 5 });
    const { purchase } = await buy(api, [{ option }], email);
    const token = await login(email);
    const auth = { Authorization: `JWT ${token}` };
    await call(api, "/customer/subscription/", { body: { subscribed: true, consent: true }, headers: auth });
    expect((await call(api, "/auth/users/me/", { method: "DELETE", body: { current_password: "mal" }, headers: auth })).status).toBe(400);
    expect(
      (await call(api, "/auth/users/me/", { method: "DELETE", body: { current_password: "ofertas-demo-2026" }, headers: auth })).status,
    ).toBe(204);
    // The erased account's token is a 401 everywhere at once (never a 500), and cannot put the
    // address back on the marketing list.
    for (const path of ["/auth/users/me/", "/customer/favorites/", "/customer/purchases/", "/customer/subscription/"]) {
      const answer = await call(api, path, { headers: auth });
      expect(answer.status, path).toBe(401);
      expect(answer.body.code, path).toBe("token_not_valid");
    }
    expect((await call(api, "/customer/subscription/", { body: { subscribed: true, consent: true }, headers: auth })).status).toBe(401);
    expect((await call(api, "/customer/cart/update/", { body: { items: [], promoCodes: [] }, headers: auth })).status).toBe(401);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "ofertas-demo-2026" } })).status).toBe(401);
    const [sale] = await api.db.select().from(sales).where(eq(sales.id, purchase.sale_id));
    expect(sale.status).toBe("paid");
    expect(sale.email).not.toContain(email.split("@")[0]);
    expect(JSON.stringify(sale.checkoutData)).not.toContain(email);
    // The address does not live on in the marketing list or the codes table.
    expect(
      await query(
        api.db,
        sql`SELECT 1 FROM mail_subscriptions WHERE email = ${email} UNION ALL SELECT 1 FROM login_codes WHERE email = ${email}`,
      ),
    ).toEqual([]);
  });
});
