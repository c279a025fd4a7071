/**
 * Several processes on one PostgreSQL (WEB_CONCURRENCY): each process has its own pool,
 * so two pools here stand for two processes. On PGlite (one owner process) the rate limits stay in
 * memory and the pool-specific checks do not apply.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, poolOf, query, type DatabaseHandle } from "#api/db/client";
import { offers, sales } from "#api/db/schema";
import { claimDueEvents } from "#api/analytics/outbox";
import { createLimits, limiterStoreFor, memoryStore, postgresStore } from "#api/rate-limit";
import { listOffers } from "#api/services/offers/listings";
import { sweepExpiredReservations } from "#api/services/sales";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { available, makeOption, startSale } from "./_helpers";

let api: TestApi;
let others: DatabaseHandle[] = [];
beforeAll(async () => {
  api = await startTestApi();
  if (api.databaseUrl)
    others = await Promise.all([openDatabase({ databaseUrl: api.databaseUrl }), openDatabase({ databaseUrl: api.databaseUrl })]);
});
afterAll(async () => {
  await Promise.all(others.map((o) => o.close()));
  await api.close();
});

it("the store follows the database: memory on PGlite, the shared table on PostgreSQL", async () => {
  expect(limiterStoreFor(api.db) === memoryStore).toBe(api.kind === "pglite");
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("on PostgreSQL", () => {
  it("a rate limit counts the calls of every process together", async () => {
    const [a, b] = others.map((o) => createLimits(postgresStore(poolOf(o.db)!)));
    const opts = { points: 3, durationSec: 60 };
    await a.consume("send-code:email:compartido@correo.es", opts);
    await b.consume("send-code:email:compartido@correo.es", opts);
    await a.consume("send-code:email:compartido@correo.es", opts);
    // Each process alone has seen at most two calls; together they have seen three.
    await expect(b.consume("send-code:email:compartido@correo.es", opts)).rejects.toMatchObject({ status: 429 });
    await expect(a.consume("send-code:email:compartido@correo.es", opts)).rejects.toMatchObject({ status: 429 });
    expect(await b.remaining("send-code:email:otro@correo.es", opts)).toBe(3);
    const rows = await query<{ key: string; points: number }>(
      api.db,
      sql`SELECT key, points FROM rate_limits WHERE key LIKE '%compartido%'`,
    );
    expect(rows).toHaveLength(1);
  });

  it("the API's own limits live in the table too", async () => {
    for (let i = 0; i < 3; i++) await call(api, "/public/offers/apply-promocode/", { method: "POST", body: { promo_code: "NOEXISTE" } });
    const [row] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM rate_limits`);
    expect(Number(row.n)).toBeGreaterThan(1);
  });

  it("two processes sweeping the same lapsed reservations give each ticket back once", async () => {
    const option = await makeOption(api, { available: 20 });
    const started = [];
    for (let i = 0; i < 6; i++) started.push(await startSale(api, [{ option, quantity: 2 }], `barrido${i}@correo.es`));
    expect(await available(api, option.uuid)).toBe(8);
    for (const s of started)
      await api.db
        .update(sales)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(sales.id, s.sale_id));
    const swept = await Promise.all([...others, ...others].map((o) => sweepExpiredReservations(o.db)));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(6);
    expect(await available(api, option.uuid)).toBe(20);
  });

  it("two processes delivering the analytics outbox claim each event once", async () => {
    await api.db.execute(sql`
      INSERT INTO analytics_outbox (dedupe_key, event)
      SELECT 'procesos:' || g, jsonb_build_object('event_type', 'Purchase', 'insert_id', 'procesos:' || g)
      FROM generate_series(1, 40) AS g`);
    const claimed: string[] = [];
    // Both pools claim small batches at the same moment until nothing is left, as two servers'
    // delivery timers would; a row claimed twice would be an event sent twice.
    for (let round = 0; round < 40; round++) {
      const batches = await Promise.all([...others, ...others].map((o) => claimDueEvents(o.db, { limit: 3, leaseMs: 60_000 })));
      const ids = batches.flat().map((r) => r.id);
      if (ids.length === 0) break;
      claimed.push(...ids);
    }
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM analytics_outbox WHERE status = 'sending' AND attempts = 1`,
    );
    expect(Number(row.n)).toBe(40);
  });

  it("a search's kept tiers follow a new offer that another process publishes", async () => {
    const [a, b] = others;
    const search = async () => listOffers(a.db, { search: "xilófono" }, { page: 1, pageSize: 24 });
    const [{ organizationId }] = await b.db.select({ organizationId: offers.organizationId }).from(offers).limit(1);
    const row = { summary: "Para toda la familia", category: "training" as const, province: "Madrid", organizationId };
    const made = await b.db
      .insert(offers)
      .values({ ...row, title: "Taller de xilófono" })
      .returning({ id: offers.id });
    try {
      expect((await search()).count).toBe(1);
      expect((await search()).count).toBe(1); // now from a's kept tiers
      made.push(
        ...(await b.db
          .insert(offers)
          .values({ ...row, title: "Xilófono para peques" })
          .returning({ id: offers.id })),
      );
      const after = await search();
      expect(after.count).toBe(2);
      expect((JSON.parse(after.resultsJson.toString()) as { uuid: string }[]).map((o) => o.uuid).sort()).toEqual(
        made.map((m) => m.id).sort(),
      );
    } finally {
      await b.db.delete(offers).where(
        inArray(
          offers.id,
          made.map((m) => m.id),
        ),
      );
    }
  });
});
