/**
 * A login is a session on the server: logging out, ending one device's session or all the others,
 * and every session ending when the password, the role or the account itself changes.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, DEMO_STAFF } from "#api/db/demo-accounts";
import { accountSessions, users } from "#api/db/schema";
import { call } from "#tests/support/api-server";
import { auth, login, sessionOf, withTokenApi } from "./_auth-tokens";
import { api } from "./_file-api";
import { newEmail } from "./_helpers";

withTokenApi();

/** A customer with a proven address and the demo password (a precomputed hash: fast). */
async function freshCustomer(role: "customer" | "staff" = "customer") {
  const email = newEmail(role === "staff" ? "empleado" : "sesiones");
  const [user] = await api.db
    .insert(users)
    .values({ email, passwordHash: DEMO_PASSWORD_HASH, role, emailVerifiedAt: new Date() })
    .returning();
  return { ...user, password: DEMO_PASSWORD };
}
const PHONE = {
  "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
};
const LAPTOP = { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0" };

/** Both halves of a session: the access token answers /auth/users/me/, the refresh token rotates. */
async function works(pair: { access: string; refresh: string }) {
  const me = await call(api, "/auth/users/me/", { headers: auth(pair.access) });
  const refreshed = await call(api, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } });
  return { access: me.status, refresh: refreshed.status, pair: refreshed.body as { access: string; refresh: string } };
}
const dead = { access: 401, refresh: 401 };

describe("ending sessions", () => {
  it("logout ends that session on the server, access token included; the account's other sessions go on", async () => {
    const user = await freshCustomer();
    const here = (await login(user.email, user.password)).body;
    const there = (await login(user.email, user.password)).body;
    expect((await call(api, "/auth/jwt/logout/", { body: { refresh: here.refresh }, headers: auth(here.access) })).status).toBe(204);
    // A copy of this device's tokens from before the logout opens nothing.
    expect(await works(here)).toMatchObject(dead);
    expect(await works(there)).toMatchObject({ access: 200, refresh: 200 });
    // Logging out again is not an error.
    expect((await call(api, "/auth/jwt/logout/", { body: { refresh: here.refresh } })).status).toBe(204);
  });

  it("logout with only the access token ends its session; with neither, or a forged token, it is a 401", async () => {
    const user = await freshCustomer();
    const pair = (await login(user.email, user.password)).body;
    expect((await call(api, "/auth/jwt/logout/", { method: "POST", headers: auth(pair.access) })).status).toBe(204);
    expect(await works(pair)).toMatchObject(dead);
    expect((await call(api, "/auth/jwt/logout/", { body: {} })).status).toBe(401);
    expect((await call(api, "/auth/jwt/logout/", { body: { refresh: pair.refresh.slice(0, -3) + "abc" } })).status).toBe(401);
    expect((await call(api, "/auth/jwt/logout/", { body: { refresh: pair.access } })).status).toBe(401);
    expect((await call(api, "/auth/jwt/logout/", { body: { refresh: 42 } })).status).toBe(400);
  });

  it("/auth/sessions/ lists the open sessions by device; one can be ended, or all but this one", async () => {
    const user = await freshCustomer();
    const phone = (await login(user.email, user.password, PHONE)).body;
    const laptop = (await login(user.email, user.password, LAPTOP)).body;
    const third = (await login(user.email, user.password, LAPTOP)).body;
    const list = await call(api, "/auth/sessions/", { headers: auth(phone.access) });
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toContain("no-store");
    expect(list.body).toHaveLength(3);
    const mine = list.body.find((s: { current: boolean }) => s.current);
    expect(mine).toMatchObject({ id: sessionOf(phone.access), device: "Chrome en Android" });
    expect(list.body.filter((s: { device: string }) => s.device === "Firefox en Windows")).toHaveLength(2);
    expect(Date.parse(mine.last_used_at)).toBeGreaterThan(Date.now() - 60_000);

    // From the phone, end the laptop's session.
    expect((await call(api, `/auth/sessions/${sessionOf(laptop.access)}/`, { method: "DELETE", headers: auth(phone.access) })).status).toBe(
      204,
    );
    expect(await works(laptop)).toMatchObject(dead);
    expect((await call(api, "/auth/sessions/", { headers: auth(phone.access) })).body).toHaveLength(2);

    // All but this one: the third goes, the phone stays.
    const others = await call(api, "/auth/sessions/end_others/", { method: "POST", headers: auth(phone.access) });
    expect(others.body).toEqual({ ended: 1 });
    expect(await works(third)).toMatchObject(dead);
    const still = await works(phone);
    expect(still).toMatchObject({ access: 200, refresh: 200 });
    // Rotation keeps the session: still one, still this device, last used just now.
    const after = (await call(api, "/auth/sessions/", { headers: auth(still.pair.access) })).body;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: sessionOf(phone.access), current: true });
  });

  it("a session of another account, an unknown one or a malformed id is a 404; anonymous callers get 401", async () => {
    const [a, b] = [await freshCustomer(), await freshCustomer()];
    const pairA = (await login(a.email, a.password)).body;
    const pairB = (await login(b.email, b.password)).body;
    for (const id of [sessionOf(pairB.access), randomUUID(), "no-es-un-id"]) {
      expect((await call(api, `/auth/sessions/${id}/`, { method: "DELETE", headers: auth(pairA.access) })).status, id).toBe(404);
    }
    expect(await works(pairB)).toMatchObject({ access: 200, refresh: 200 });
    expect((await call(api, "/auth/sessions/")).status).toBe(401);
    expect((await call(api, "/auth/sessions/end_others/", { method: "POST" })).status).toBe(401);
  });

  it("a password change ends every session of the account at once; the device that changed it gets a fresh pair", async () => {
    const user = await freshCustomer();
    const here = (await login(user.email, user.password)).body;
    const elsewhere = (await login(user.email, user.password)).body;
    const changed = await call(api, "/auth/users/set_password/", {
      body: { current_password: user.password, new_password: "clave-nueva-segura", re_new_password: "clave-nueva-segura" },
      headers: auth(here.access),
    });
    expect(changed.status).toBe(200);
    expect(await works(here)).toMatchObject(dead);
    expect(await works(elsewhere)).toMatchObject(dead);
    expect(await works(changed.body)).toMatchObject({ access: 200, refresh: 200 });
  });

  it("staff deactivating an account or changing its role ends its sessions: no staff power survives a demotion", async () => {
    const staff = (await login(DEMO_STAFF.email, DEMO_STAFF.password)).body;
    const customer = await freshCustomer();
    const customerPair = (await login(customer.email, customer.password)).body;
    const off = await call(api, `/auth/users/${customer.id}/`, {
      method: "PATCH",
      body: { is_active: false },
      headers: auth(staff.access),
    });
    expect(off.status).toBe(200);
    expect(await works(customerPair)).toMatchObject(dead);
    // Deactivated stays deactivated: neither the password nor a code brings the account back.
    expect((await login(customer.email, customer.password)).status).toBe(401);

    const colleague = await freshCustomer("staff");
    const colleaguePair = (await login(colleague.email, colleague.password)).body;
    expect((await call(api, "/users/", { headers: auth(colleaguePair.access) })).status).toBe(200);
    await call(api, `/auth/users/${colleague.id}/`, { method: "PATCH", body: { role: "customer" }, headers: auth(staff.access) });
    for (const path of ["/users/", "/partner-leads/", "/auth/users/"]) {
      const answer = await call(api, path, { headers: auth(colleaguePair.access) });
      expect(answer.status, path).toBe(401);
    }
    // Logged in again, the former staff member is a customer.
    const again = (await login(colleague.email, colleague.password)).body;
    expect((await call(api, "/users/", { headers: auth(again.access) })).status).toBe(403);
    // A name change is no reason to log anyone out.
    await call(api, `/auth/users/${colleague.id}/`, { method: "PATCH", body: { first_name: "Ana" }, headers: auth(staff.access) });
    expect(await works(again)).toMatchObject({ access: 200, refresh: 200 });
  });

  it("an erased staff member's token is a 401 on the next request, never a 500", async () => {
    const staff = (await login(DEMO_STAFF.email, DEMO_STAFF.password)).body;
    const colleague = await freshCustomer("staff");
    const pair = (await login(colleague.email, colleague.password)).body;
    expect((await call(api, `/users/${colleague.id}/`, { method: "DELETE", headers: auth(staff.access) })).status).toBe(204);
    for (const path of ["/users/", "/auth/users/me/", "/organizations/", "/customer/favorites/"]) {
      expect((await call(api, path, { headers: auth(pair.access) })).status, path).toBe(401);
    }
    expect(
      (await call(api, "/customer/subscription/", { body: { subscribed: true, consent: true }, headers: auth(pair.access) })).status,
    ).toBe(401);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } })).status).toBe(401);
    expect(await api.db.select().from(accountSessions).where(eq(accountSessions.userId, colleague.id))).toEqual([]);
  });
});
