/**
 * offer_counts (migrations 0006, 0022, 0023 and 0026): one row per listing's count, '' standing for every
 * category or every province, kept by statement triggers. After every kind of change to offers
 * each row must say what counting the offers says, and the API's counts must read them.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { query } from "#api/db/client";
import { offers, organizations } from "#api/db/schema";
import { searchTiers } from "#api/services/offers/search";
import { searchTerms } from "#rules/search";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

type Count = { category: string; province: string; n: number };

/** Every listing's count, straight from the offers: each pair, each category, each province, all. */
async function counted(): Promise<Count[]> {
  return query<Count>(
    api.db,
    sql`SELECT coalesce(category, '') AS category, coalesce(province, '') AS province, count(*)::int AS n
        FROM offers WHERE status = 'active'
        GROUP BY GROUPING SETS ((category, province), (category), (province), ()) ORDER BY 1, 2`,
  );
}

/** The kept rows; a row left at zero is the same as no row. */
async function kept(): Promise<Count[]> {
  return query<Count>(api.db, sql`SELECT category, province, n FROM offer_counts WHERE n <> 0 ORDER BY 1, 2`);
}

async function agree(after: string) {
  expect(await kept(), after).toEqual(await counted());
}

function offer(organizationId: string, title: string, category: string, province: string) {
  return { organizationId, title, summary: `Resumen de ${title}`, category, province, address: "Calle Mayor 1" };
}

it("every listing's count stays what the offers say after every kind of change", async () => {
  await agree("the demo catalogue");
  const totals = (await counted()).filter((c) => c.category === "" && c.province === "");
  expect(totals).toHaveLength(1);
  expect(totals[0].n).toBeGreaterThan(0);

  const [org] = await api.db.insert(organizations).values({ name: "Casa de las cuentas" }).returning({ id: organizations.id });
  const ids = (
    await api.db
      .insert(offers)
      .values([
        offer(org.id, "Cena uno", "restaurants", "Soria"),
        offer(org.id, "Cena dos", "restaurants", "Soria"),
        offer(org.id, "Masaje", "health_and_beauty", "Teruel"),
        offer(org.id, "Ruta", "travel", "Soria"),
      ])
      .returning({ id: offers.id })
  ).map((r) => r.id);
  await agree("four offers inserted in one statement, in a province new to the catalogue");

  await api.db
    .update(offers)
    .set({ status: "archived" })
    .where(inArray(offers.id, [ids[0], ids[2]]));
  await agree("two archived");
  await api.db.update(offers).set({ category: "leisure" }).where(eq(offers.id, ids[1]));
  await agree("a category changed");
  await api.db.update(offers).set({ province: "Teruel", category: "health_and_beauty" }).where(eq(offers.id, ids[3]));
  await agree("province and category changed together");
  await api.db.update(offers).set({ status: "active" }).where(eq(offers.id, ids[2]));
  await agree("one active again");
  const versions = () => query(api.db, sql`SELECT category, province, xmin::text FROM offer_counts ORDER BY 1, 2`);
  const before = await versions();
  await api.db.update(offers).set({ title: "Masaje relajante" }).where(eq(offers.id, ids[2]));
  await agree("an edit that moves no count");
  expect(await versions(), "an edit that moves no count rewrites no row").toEqual(before);
  await api.db.update(offers).set({ rank: 7 }).where(eq(offers.status, "archived"));
  await agree("a statement that touches only offers not on sale");
  await api.db.delete(offers).where(inArray(offers.id, ids));
  await agree("all four deleted");
});

it("the API's counts read them: all, a category, a region, both", async () => {
  const want = await counted();
  const n = (category: string, province: string) => want.find((c) => c.category === category && c.province === province)?.n ?? 0;
  const [some] = want.filter((c) => c.category !== "" && c.province !== "");
  for (const [url, expected] of [
    ["/public/offers/", n("", "")],
    [`/public/offers/?category=${some.category}`, n(some.category, "")],
    [`/public/offers/?region=${encodeURIComponent(some.province)}`, n("", some.province)],
    [`/public/offers/?category=${some.category}&region=${encodeURIComponent(some.province)}`, some.n],
  ] as const) {
    const res = await call(api, url);
    expect(res.status, url).toBe(200);
    expect(res.body.count, url).toBe(expected);
  }
  expect(n("", "")).toBeGreaterThan(n(some.category, ""));
});

it("search weighs a walk against the active offers, not the sum of every listing's count", async () => {
  // Each active offer is in four rows (its pair, its category, its province, all): summed, four times.
  const { active } = await searchTiers(api.db, searchTerms("cena"));
  expect(active).toBe((await counted()).find((c) => c.category === "" && c.province === "")?.n);
  const [{ n }] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
  expect(active).toBe(n);
});
