/**
 * CI's short version of the 100,000-offer check: 20,000 offers on PostgreSQL, and the
 * plans of the API's own listing and search queries must use the indexes. Plans, not timings:
 * timings on a shared CI machine prove nothing, a sequential scan of offers proves a regression.
 * Runs when TEST_DATABASE_URL is set (.ci/run's PostgreSQL pass); `npm run bench` measures speed.
 */
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { seedLarge } from "#api/db/seed-large";
import type { Scope } from "#api/services/access";
import { partnerOfferWhere } from "#api/services/partner-offers";
import { nearbyOffers } from "#api/services/offers/cards";
import type { OfferFilters } from "#api/services/offers/filters";
import { listingIds } from "#api/services/offers/listings";
import { searchPasses, searchTiers, tierIds, tierQuery } from "#api/services/offers/search";
import { SEARCH_FUZZY_THRESHOLD, searchTerms } from "#rules/search";
import { OFFERS_PER_SITEMAP, sitemapFileXml, sitemapIndexXml } from "#app/catalogue/sitemap.server";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { listingOf, locs, offerIds } from "#tests/support/sitemap";
import { nearbyByScan } from "#tests/support/nearby";

const OFFERS = 20_000;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Filter?: string;
  Plans?: PlanNode[];
};
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe.runIf(onPostgres)(`a catalogue of ${OFFERS} offers on PostgreSQL`, () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
    const active = await seedLarge(api.db, OFFERS);
    expect(active).toBeGreaterThanOrEqual(OFFERS);
  }, 600_000);
  afterAll(() => api?.close());

  async function plan(statement: SQL, run: (s: SQL) => Promise<unknown[]> = (s) => query(api.db, s)) {
    const rows = (await run(sql`EXPLAIN (FORMAT JSON) ${statement}`)) as { "QUERY PLAN": unknown }[];
    const raw = rows[0]["QUERY PLAN"];
    const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    return nodes(parsed[0].Plan);
  }
  const onOffers = (ns: PlanNode[]) => ns.filter((n) => n["Relation Name"] === "offers");
  // A bitmap index scan names its index but not its table; every index here belongs to offers.
  const indexesOn = (ns: PlanNode[]) => ns.map((n) => n["Index Name"]).filter(Boolean);
  const expectNoSeqScan = (ns: PlanNode[]) => expect(onOffers(ns).map((n) => n["Node Type"])).not.toContain("Seq Scan");

  it.each<[string, OfferFilters, number, string]>([
    ["page 1", {}, 0, "offers_list_idx"],
    ["page 400", {}, 399 * 24, "offers_list_idx"],
    ["a category", { category: "restaurants" }, 0, "offers_category_list_idx"],
    ["a region", { region: "Madrid" }, 0, "offers_province_list_idx"],
    ["a category in a region", { category: "restaurants", region: "Madrid" }, 0, "offers_category_province_list_idx"],
  ])("a listing (%s) walks its covering index, never the table", async (_name, filters, offset, index) => {
    const ns = await plan(listingIds(filters, 24, offset));
    expectNoSeqScan(ns);
    expect(indexesOn(ns)).toContain(index);
    expect(onOffers(ns).map((n) => n["Node Type"])).toContain("Index Only Scan");
  });

  it("page 400 seen before seeks its index to where it began instead of stepping over 9,576 offers", async () => {
    const [start] = await query<{ rank: number; created_at: string; id: string }>(
      api.db,
      sql`SELECT rank, created_at::text AS created_at, id FROM offers WHERE status = 'active' ORDER BY rank, created_at, id OFFSET ${399 * 24} LIMIT 1`,
    );
    const ns = await plan(listingIds({}, 24, 0, { rank: start.rank, createdAt: start.created_at, id: start.id }));
    const scan = onOffers(ns).find((n) => n["Index Name"] === "offers_list_idx");
    expect(scan?.["Node Type"]).toBe("Index Only Scan");
    expect(scan?.["Index Cond"]).toMatch(/ROW\(rank, created_at, id\) >= ROW\(/);
    // Through the API: the second visit (from its own start) is the same page as the first.
    const first = await call(api, "/public/offers/?page=400");
    const again = await call(api, "/public/offers/?page=400");
    expect(again.body.results[0].uuid).toBe(start.id);
    expect(again.body.results.map((o: any) => o.uuid)).toEqual(first.body.results.map((o: any) => o.uuid));
  });

  it.each([
    ["spa", 1],
    ["cena", 1],
    ["cena", 0],
    ["paella barceloneta", 2],
  ] as const)("search %j, tier of %i title words, walks offers_search_walk_idx reading no rows", async (term, hits) => {
    const ns = await plan(tierIds(tierQuery(searchTerms(term), hits), 24, 0, true));
    expectNoSeqScan(ns);
    const scan = onOffers(ns).find((n) => n["Index Name"] === "offers_search_walk_idx");
    expect(scan?.["Node Type"]).toBe("Index Only Scan");
  });

  it.each([
    ["spa", true, "offers_search_walk_idx"],
    ["paella", false, "offers_search_vector_idx"],
  ] as const)(
    "a page at the start of one tier (%j, walking: %s) keeps one plan, through %s, its words computed once",
    async (term, walk, index) => {
      // What PostgreSQL keeps after five runs of the worker's prepared statement: the plan made
      // without the words' value, forced here.
      const { sql: text, params } = new PgDialect().sqlToQuery(tierIds(tierQuery(searchTerms(term), 1), 24, 0, walk, true));
      expect(params).toHaveLength(1); // the words; LIMIT and OFFSET are in the text
      const words = `'${String(params[0]).replaceAll("'", "''")}'`;
      await api.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
        await tx.execute(sql.raw(`PREPARE one_tier(text) AS ${text}`));
        const ns = await plan(sql.raw(`EXECUTE one_tier(${words})`), (s) => query(tx, s));
        await tx.execute(sql.raw("DEALLOCATE one_tier"));
        expectNoSeqScan(ns);
        expect(indexesOn(ns)).toContain(index);
        // to_tsquery() of a parameter in a filter would run again for every entry read.
        expect(ns.map((n) => `${n.Filter ?? ""} ${n["Index Cond"] ?? ""}`).join(" ")).not.toContain("to_tsquery");
      });
    },
  );

  it("a rare word or a deep page sorts its matches, found through the word index", async () => {
    const ns = await plan(tierIds(tierQuery(searchTerms("paella"), 1), 24, 1000, false));
    expectNoSeqScan(ns);
    expect(indexesOn(ns)).toContain("offers_search_vector_idx");
    expect(indexesOn(ns)).not.toContain("offers_search_walk_idx");
  });

  it.each([
    ["cena romántica", { region: "Madrid" }, 0],
    ["paella masaje", {}, 1], // the any-word pass
  ] as const)("search %j with %j (pass %i) finds its rows through offers_search_vector_idx", async (term, filters, passIndex) => {
    const ns = await plan(searchPasses(filters, searchTerms(term))[passIndex](24, 0));
    expectNoSeqScan(ns);
    expect(indexesOn(ns)).toContain("offers_search_vector_idx");
  });

  it.each(["cena romántica", "termal"])(
    "staff's offer search %j (the promo-code form's) finds its rows of every status through offers_search_vector_idx",
    async (term) => {
      const staff: Scope = {
        actor: { id: "00000000-0000-0000-0000-000000000000", email: "staff@ofertas.es", role: "staff" },
        staff: true,
        orgs: null,
      };
      const ns = await plan(sql`SELECT count(*) FROM offers WHERE ${partnerOfferWhere(staff, { search: term })}`);
      expectNoSeqScan(ns);
      expect(indexesOn(ns)).toContain("offers_search_vector_idx");
    },
  );

  it("a misspelling is looked up in the vocabulary's trigram index, as search_corrections() runs it (sequential scans off)", async () => {
    const ns = await api.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      await tx.execute(sql.raw(`SET LOCAL pg_trgm.word_similarity_threshold = ${SEARCH_FUZZY_THRESHOLD}`));
      return plan(sql`SELECT * FROM search_correction_candidates('masage') LIMIT 3`, (s) => query(tx, s));
    });
    expect(indexesOn(ns)).toContain("search_words_trgm_idx");
    expect(indexesOn(ns)).not.toContain("search_words_pkey");
  });

  it.each(["spa", "cena", "paella barceloneta", "cena dos"])(
    "search_words counts %j as the rows do, tier by tier, after seeding through its triggers",
    async (term) => {
      const terms = searchTerms(term);
      const row = await searchTiers(api.db, terms);
      const counted: number[] = [];
      for (let hits = 0; hits <= terms.length; hits++) {
        const [r] = await query<{ n: number }>(
          api.db,
          sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active' AND search_vector @@ to_tsquery('simple', ${tierQuery(terms, hits)})`,
        );
        counted.push(Number(r.n));
      }
      expect(counted.reduce((a, b) => a + b)).toBeGreaterThan(0);
      expect(row.tiers).toEqual([counted.reduce((a, b) => a + b), ...counted]);
    },
  );

  it("the API answers the same at this size: counts from offer_counts match the rows, search still relevant", async () => {
    const [row] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active' AND category = 'travel'`,
    );
    const { body } = await call(api, "/public/offers/?category=travel&page=400");
    expect(body.count).toBe(Number(row.n));
    const spa = await call(api, "/public/offers/?search=spa");
    expect(spa.body.count).toBeGreaterThan(100);
    for (const o of spa.body.results) expect(o.title).not.toMatch(/Maspalomas|española/);
  });

  it("«Cerca de aquí» walks offers_nearby_idx, and answers what ranking every offer by distance answers", async () => {
    const ns =
      await plan(sql`SELECT id FROM offers WHERE status = 'active' AND id <> gen_random_uuid() AND latitude IS NOT NULL AND longitude IS NOT NULL
                              ORDER BY point(longitude, latitude) <-> point(-3.70, 40.41) LIMIT 16`);
    expectNoSeqScan(ns);
    expect(indexesOn(ns)).toContain("offers_nearby_idx");
    const sample = await query<{ id: string }>(api.db, sql`SELECT id FROM offers WHERE status = 'active' ORDER BY md5(id::text) LIMIT 40`);
    for (const { id } of sample) {
      for (const size of [4, 20]) {
        const near = await nearbyOffers(api.db, id, size);
        expect(
          near!.map((o) => o.uuid),
          `${id} ${size}`,
        ).toEqual(await nearbyByScan(api.db, id, size));
      }
    }
  });

  it("the sitemap names every offer once, across as many files of 5,000 as the catalogue needs", async () => {
    const origin = "https://ofertas.example";
    const files = locs(await sitemapIndexXml(origin, listingOf(api))).slice(1);
    const { count } = (await call(api, "/public/offers/?page_size=1")).body;
    expect(files).toHaveLength(Math.ceil(count / OFFERS_PER_SITEMAP));
    const listed = new Set<string>();
    for (const url of files) {
      const ids = offerIds((await sitemapFileXml(origin, url.split("/").pop()!, listingOf(api)))!);
      expect(ids.length).toBeLessThanOrEqual(OFFERS_PER_SITEMAP);
      for (const id of ids) listed.add(id);
    }
    expect(listed.size).toBe(count);
  }, 120_000);
});
