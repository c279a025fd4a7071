/** Promo codes from the partner's side, and nothing learnt about anyone else's. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { call, type TestApi } from "#tests/support/api-server";
import { PROMO_CODE_CHECKS } from "#rules/limits";
import { callAs, newPartner, withPartnerWorld, type World } from "./_partner";

let api: TestApi;
let w: World;
withPartnerWorld((world) => ({ api, w } = world));

describe("promo codes", () => {
  it("a partner manages codes of its own offers only; staff any", async () => {
    const mine = await callAs(api, "partnerA", "/promocodes/", {
      body: { code: "socioa10", discount_type: "percent", discount_value: "10", offer: w.offerA, max_uses: 5 },
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.body).toMatchObject({ code: "SOCIOA10", offer: w.offerA, max_uses: 5, used_count: 0 });
    expect(
      (await callAs(api, "partnerA", "/promocodes/", { body: { code: "GLOBALA", discount_type: "percent", discount_value: "10" } })).status,
    ).toBe(400);
    expect(
      (
        await callAs(api, "partnerA", "/promocodes/", {
          body: { code: "AJENO", discount_type: "percent", discount_value: "10", offer: w.offerB },
        })
      ).status,
    ).toBe(404);
    expect((await callAs(api, "partnerB", `/promocodes/${mine.body.uuid}/`)).status).toBe(404);
    const again = await callAs(api, "partnerA", "/promocodes/", {
      body: { code: "SOCIOA10", discount_type: "amount", discount_value: "1", offer: w.offerA },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      detail: "Elige otro código: este no está disponible.",
      errors: { code: ["Elige otro código: este no está disponible."] },
    });
    const bad = await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PATCH", body: { discount_value: "150" } });
    expect(bad.status).toBe(400);
    const list = await callAs(api, "partnerA", "/promocodes/");
    expect(list.body.results.map((p: any) => p.code)).toEqual(["SOCIOA10"]);
    const staff = await callAs(api, "staff", "/promocodes/");
    expect(staff.body.results.map((p: any) => p.code)).toEqual(expect.arrayContaining(["SOCIOA10", "BIENVENIDA10"]));
    // The shop applies it like any other code.
    const applied = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "socioa10" } });
    expect(applied.body).toMatchObject({ promo_code: "SOCIOA10", discount_type: "percent", offer_uuid: w.offerA });
    expect((await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("promo codes: nothing learnt about anyone else's", () => {
  const body = (code: string, offer: string) => ({ code, discount_type: "percent", discount_value: "10", offer });

  it("a taken code gets one neutral answer, whoever has it: this business, another, or the whole shop", async () => {
    const own = await callAs(api, "partnerA", "/promocodes/", { body: body("PROPIO15", w.offerA) });
    const theirs = await callAs(api, "partnerB", "/promocodes/", { body: body("AJENO15", w.offerB) });
    expect([own.status, theirs.status]).toEqual([201, 201]);
    const answers = [];
    for (const code of ["PROPIO15", "ajeno15", "BIENVENIDA10"])
      answers.push(await callAs(api, "partnerA", "/promocodes/", { body: body(code, w.offerA) }));
    // Renaming a code to a taken one, too.
    const mine = await callAs(api, "partnerA", "/promocodes/", { body: body("RENOMBRAR15", w.offerA) });
    for (const code of ["AJENO15", "BIENVENIDA10"]) {
      answers.push(await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PATCH", body: { code } }));
      answers.push(await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`, { method: "PUT", body: body(code, w.offerA) }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        detail: "Elige otro código: este no está disponible.",
        errors: { code: ["Elige otro código: este no está disponible."] },
      });
    }
    // Still unique: each code once, the renamed one unchanged.
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM promo_codes WHERE code IN ('PROPIO15', 'AJENO15', 'BIENVENIDA10', 'RENOMBRAR15')`,
    );
    expect(Number(row.n)).toBe(4);
    expect((await callAs(api, "partnerA", `/promocodes/${mine.body.uuid}/`)).body.code).toBe("RENOMBRAR15");
  });

  it("creating and renaming codes is rate-limited like apply-promocode: per account and per address", async () => {
    const limit = PROMO_CODE_CHECKS.points;
    const [first, second] = [await newPartner(api, w.orgA), await newPartner(api, w.orgA)];
    const write = async (who: { token: string }, address: string, code: string, id?: string) => {
      const response = await fetch(`${api.url}/promocodes/${id ? `${id}/` : ""}`, {
        method: id ? "PATCH" : "POST",
        headers: { "content-type": "application/json", authorization: `JWT ${who.token}`, "x-forwarded-for": address },
        body: JSON.stringify(id ? { code } : body(code, w.offerA)),
      });
      return { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get("retry-after") };
    };
    // Guessing: every try is a taken code, the answer a 409, until the limit.
    const tries = [];
    for (let i = 0; i < limit; i++) tries.push((await write(first, "203.0.113.7", "BIENVENIDA10")).status);
    expect(new Set(tries)).toEqual(new Set([409]));
    const limited = await write(first, "203.0.113.7", "BIENVENIDA10");
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toBe("Demasiados intentos con códigos promocionales. Espera un minuto.");
    expect(limited.retryAfter).toMatch(/^\d+$/);
    // The same account from elsewhere: still limited (renames too).
    expect((await write(first, "198.51.100.20", "OTRO15")).status).toBe(429);
    const [row] = await query<{ id: string }>(api.db, sql`SELECT id FROM promo_codes WHERE code = 'PROPIO15'`);
    expect((await write(first, "198.51.100.20", "OTRO16", row.id)).status).toBe(429);
    // Another account at the same address: the address is spent too.
    expect((await write(second, "203.0.113.7", "NUEVO15")).status).toBe(429);
    // That account elsewhere is fine.
    expect((await write(second, "198.51.100.21", "NUEVO15")).status).toBe(201);
  });
});
