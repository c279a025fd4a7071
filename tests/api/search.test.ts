/**
 * Relevance: what a shopper types and the offers that must come first. Runs on PGlite
 * and, in CI, on PostgreSQL: unaccent + pg_trgm behave the same on both.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { offers } from "#api/db/schema";
import { seedUuid } from "#api/db/seed";
import { tierIds, tierQuery } from "#api/services/offers/search";
import { searchTerms } from "#rules/search";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const THERMAL = seedUuid("offer", "circuito-termal-retiro-madrid");
const PAELLA = seedUuid("offer", "paella-marinera-barceloneta");

type NewOffer = Omit<typeof offers.$inferInsert, "organizationId">;

/** Offers of a demo partner, inserted for a test to change and delete. */
async function insertOffers(...values: NewOffer[]) {
  const [{ organizationId }] = await api.db.select({ organizationId: offers.organizationId }).from(offers).limit(1);
  return api.db
    .insert(offers)
    .values(values.map((v) => ({ ...v, organizationId })))
    .returning({ id: offers.id });
}

async function titles(term: string, extra = "") {
  const { status, body } = await call(api, `/public/offers/?search=${encodeURIComponent(term)}&page_size=100${extra}`);
  expect(status).toBe(200);
  expect(body.results).toHaveLength(Math.min(body.count, 100));
  return {
    count: body.count as number,
    uuids: body.results.map((o: any) => o.uuid) as string[],
    titles: body.results.map((o: any) => o.title) as string[],
    body,
  };
}

describe("search relevance", () => {
  it('"spa" finds the spa and thermal offers, and not España, Maspalomas or "guitarra española"', async () => {
    const r = await titles("spa");
    expect(r.titles.some((t) => /spa\b/i.test(t))).toBe(true);
    expect(r.uuids).toContain(THERMAL);
    for (const t of r.titles) expect(t).not.toMatch(/Maspalomas|española|Sevilla/);
    const all = await query<{ id: string; title: string; summary: string }>(
      api.db,
      sql`SELECT id, title, summary FROM offers WHERE status = 'active'`,
    );
    const espana = all.filter((o) => /España|Maspalomas|español/i.test(o.title + o.summary)).map((o) => o.id);
    expect(espana.length).toBeGreaterThan(0);
    for (const id of espana) expect(r.uuids).not.toContain(id);
  });

  it('"paella" finds the paella first', async () => {
    const r = await titles("paella");
    expect(r.uuids[0]).toBe(PAELLA);
  });

  it('"cena romántica" finds the dinners, dinners in the title first', async () => {
    const r = await titles("cena romántica");
    expect(r.count).toBeGreaterThanOrEqual(3);
    for (const t of r.body.results) expect(`${t.title} ${t.summary}`).toMatch(/\bcena/i);
    const inTitle = r.titles.map((t) => /\bcena/i.test(t));
    // Title matches come before summary-only matches.
    expect(inTitle.indexOf(false) === -1 || inTitle.lastIndexOf(true) < inTitle.indexOf(false)).toBe(true);
    expect(inTitle[0]).toBe(true);
  });

  it('a typo ("masage") still finds the massages', async () => {
    const r = await titles("masage");
    expect(r.uuids[0]).toBe(THERMAL);
    expect(r.titles[0]).toMatch(/masaje/);
  });

  it("matches at word starts only, in any case and with or without accents", async () => {
    expect((await titles("ESPAÑA")).count).toBeGreaterThan(0); // the word itself is found…
    const r = await titles("pana"); // …but not from its middle
    expect(r.titles.join(" ")).not.toMatch(/España/);
    expect((await titles("relajate")).uuids).toContain(THERMAL); // "Relájate" in the summary
  });

  it("a word no offer has is left out, and the other words are still all required", async () => {
    const alone = await titles("paella barceloneta");
    const withUnknown = await titles("paella zzyzxqua barceloneta");
    expect(withUnknown.uuids).toEqual(alone.uuids);
    // Words that exist but never together still find offers with either, more words first.
    const either = await titles("paella masaje");
    expect(either.uuids).toContain(PAELLA);
    expect(either.uuids).toContain(THERMAL);
  });

  it("all words beat some words: every result of a two-word query has both when any does", async () => {
    const r = await titles("paella barceloneta");
    expect(r.uuids).toEqual([PAELLA]);
  });

  it("title matches rank before summary-only matches", async () => {
    // "masaje" is in the thermal circuit's title; give another offer the word in its summary only,
    // and a better catalogue rank, to show relevance wins over rank.
    const [created] = await insertOffers({
      title: "Sesión de bienestar",
      summary: "Incluye un masaje de pies",
      category: "health_and_beauty",
      province: "Madrid",
      rank: 0,
    });
    try {
      const r = await titles("masaje");
      expect(r.uuids.indexOf(THERMAL)).toBeLessThan(r.uuids.indexOf(created.id));
      expect(r.uuids.indexOf(created.id)).toBeGreaterThan(-1);
      // One offer a page: each page starts where the one before ended, across the two tiers.
      const paged: string[] = [];
      for (let page = 1; page <= r.count; page++) {
        const { body } = await call(api, `/public/offers/?search=masaje&page_size=1&page=${page}`);
        expect(body.count).toBe(r.count);
        paged.push(...body.results.map((o: any) => o.uuid));
      }
      expect(paged).toEqual(r.uuids);
    } finally {
      await api.db.delete(offers).where(eq(offers.id, created.id));
    }
  });

  it('"spa" ranks an offer with spa in its title above the thermal circuit that only names a massage', async () => {
    // The worst catalogue rank, so only the title can lift it above the thermal circuit (its
    // title has «termal», a synonym of spa, and «masaje», never «spa»).
    const [created] = await insertOffers({
      title: "Spa urbano con circuito de aguas",
      summary: "Piscina climatizada, sauna y baño turco",
      category: "health_and_beauty",
      province: "Madrid",
      rank: 1_000_000,
    });
    try {
      for (const extra of ["", "&region=Madrid"]) {
        const r = await titles("spa", extra);
        expect(r.uuids).toContain(THERMAL);
        expect(r.uuids.indexOf(created.id)).toBeGreaterThan(-1);
        expect(r.uuids.indexOf(created.id)).toBeLessThan(r.uuids.indexOf(THERMAL));
        // Every offer with «spa» in its title comes before every one found by a synonym alone.
        const inTitle = r.titles.map((t) => /\bspa/i.test(t));
        expect(inTitle.lastIndexOf(true)).toBeLessThan(inTitle.indexOf(false) === -1 ? Infinity : inTitle.indexOf(false));
      }
    } finally {
      await api.db.delete(offers).where(eq(offers.id, created.id));
    }
  });

  it("search pages past the first keep the count and the order", async () => {
    const whole = await titles("con");
    // "con" is a stop word: nothing left to search for, so no results rather than everything.
    expect(whole.count).toBe(0);
    const all = await titles("para dos");
    const first = await call(api, `/public/offers/?search=para%20dos&page_size=2`);
    const second = await call(api, `/public/offers/?search=para%20dos&page_size=2&page=2`);
    expect(first.body.count).toBe(all.count);
    expect(second.body.count).toBe(all.count);
    expect([...first.body.results, ...second.body.results].map((o: any) => o.uuid)).toEqual(all.uuids.slice(0, 4));
  });

  it('a misspelling is read as the catalogue\'s word most like it ("paela" → paella)', async () => {
    expect((await titles("paela")).uuids[0]).toBe(PAELLA);
    expect((await titles("zzyzxqua")).count).toBe(0);
  });

  it("a tier read by walking the catalogue order and by sorting its matches is the same list", async () => {
    for (const term of ["cena", "paella barceloneta", "spa"]) {
      const terms = searchTerms(term);
      for (let hits = 0; hits <= terms.length; hits++) {
        const walked = await query<{ id: string }>(api.db, tierIds(tierQuery(terms, hits), 100, 0, true));
        const sorted = await query<{ id: string }>(api.db, tierIds(tierQuery(terms, hits), 100, 0, false));
        expect(walked.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
      }
    }
  });

  it("filters still apply to a search", async () => {
    const r = await titles("paella", "&region=Madrid");
    expect(r.uuids).not.toContain(PAELLA);
  });
});

describe("listing counts kept by triggers", () => {
  it("the count follows inserts, status changes and deletes", async () => {
    const before = (await call(api, "/public/offers/?category=training&region=Soria")).body.count;
    const [a] = await insertOffers(
      { title: "Curso A", summary: "x", category: "training", province: "Soria" },
      { title: "Curso B", summary: "x", category: "training", province: "Soria" },
    );
    expect((await call(api, "/public/offers/?category=training&region=Soria")).body.count).toBe(before + 2);
    await api.db.update(offers).set({ status: "archived" }).where(eq(offers.id, a.id));
    expect((await call(api, "/public/offers/?category=training&region=Soria")).body.count).toBe(before + 1);
    await api.db
      .update(offers)
      .set({ province: "Teruel" })
      .where(sql`${offers.title} = 'Curso B'`);
    expect((await call(api, "/public/offers/?category=training&region=Soria")).body.count).toBe(before);
    expect((await call(api, "/public/offers/?category=training&region=Teruel")).body.results.map((o: any) => o.title)).toContain("Curso B");
    await api.db.delete(offers).where(sql`${offers.title} IN ('Curso A', 'Curso B')`);
    const [row] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM offers WHERE status = 'active'`);
    expect((await call(api, "/public/offers/")).body.count).toBe(Number(row.n));
  });
});

describe("search counts kept by triggers (search_words)", () => {
  it("a word's count follows inserts, edits of the title, status changes and deletes", async () => {
    const count = async (word: string) => (await call(api, `/public/offers/?search=${word}`)).body.count as number;
    const vocabulary = async (word: string) =>
      (await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM search_words WHERE word = ${word}`))[0].n;
    const [a] = await insertOffers({
      title: "Zarzuela en el Teatro Olímpico",
      summary: "Butaca de platea",
      category: "leisure",
      province: "Madrid",
    });
    try {
      expect(await count("olimpico")).toBe(1);
      expect(await count("platea")).toBe(1);
      await api.db.update(offers).set({ title: "Zarzuela en el Teatro Victoria" }).where(eq(offers.id, a.id));
      expect(await count("olimpico")).toBe(0);
      expect(Number(await vocabulary("olimpico"))).toBe(0); // no active offer has it: never a correction
      expect(await count("victoria")).toBeGreaterThanOrEqual(1);
      await api.db.update(offers).set({ status: "paused" }).where(eq(offers.id, a.id));
      expect(await count("platea")).toBe(0);
      await api.db.update(offers).set({ status: "active" }).where(eq(offers.id, a.id));
      expect(await count("platea")).toBe(1);
      expect((await call(api, "/public/offers/?search=platea")).body.results[0].uuid).toBe(a.id);
    } finally {
      await api.db.delete(offers).where(eq(offers.id, a.id));
    }
    expect(await count("platea")).toBe(0);
    expect(Number(await vocabulary("platea"))).toBe(0);
  });

  it("new words go straight into the GIN indexes, with no pending list for every search to read (PGlite never vacuums)", async () => {
    // gin_clean_pending_list() merges what is pending and says how many pages that was.
    const pending = async () =>
      (
        await query<{ words: number; vectors: number }>(
          api.db,
          sql`SELECT gin_clean_pending_list('search_words_trgm_idx'::regclass)::int AS words, gin_clean_pending_list('offers_search_vector_idx'::regclass)::int AS vectors`,
        )
      )[0];
    const [a] = await insertOffers({
      title: "Espectáculo de marionetas",
      summary: "Títeres para toda la familia",
      category: "leisure",
      province: "Madrid",
    });
    try {
      await api.db.update(offers).set({ title: "Espectáculo de marionetas y ventriloquía" }).where(eq(offers.id, a.id));
      expect(await pending()).toEqual({ words: 0, vectors: 0 });
      // The new word is in the trigram index itself: a misspelling of it is corrected to it.
      expect((await call(api, "/public/offers/?search=marionettas")).body.results.map((o: any) => o.uuid)).toEqual([a.id]);
    } finally {
      await api.db.delete(offers).where(eq(offers.id, a.id));
    }
  });
});

describe("a search's tiers kept between searches (search_version, migration 0027)", () => {
  const count = async (word: string) => (await call(api, `/public/offers/?search=${word}`)).body.count as number;
  const version = async () => String((await query<{ v: string }>(api.db, sql`SELECT v::text AS v FROM search_version`))[0].v);

  it("the tiers are read once and kept while search_version stands; when it moves, they are read again", async () => {
    const made: string[] = [];
    const [a] = await insertOffers({
      title: "Clase de marimba",
      summary: "Percusión para adultos",
      category: "training",
      province: "Madrid",
    });
    made.push(a.id);
    try {
      expect(await count("marimba")).toBe(1);
      const kept = await version();
      // A second marimba moves the number; setting it back makes the kept tiers look current,
      // so the search still counts one: it answered from what it kept, not from search_words.
      const [b] = await insertOffers({
        title: "Marimba para principiantes",
        summary: "Cinco clases",
        category: "training",
        province: "Madrid",
      });
      made.push(b.id);
      expect(await version()).not.toBe(kept);
      await api.db.execute(sql`UPDATE search_version SET v = ${kept}::bigint`);
      expect(await count("marimba")).toBe(1);
      await api.db.execute(sql`UPDATE search_version SET v = v + 1`);
      expect(await count("marimba")).toBe(2);
      const { body } = await call(api, "/public/offers/?search=marimba");
      expect(body.results.map((o: any) => o.uuid).sort()).toEqual([a.id, b.id].sort());
    } finally {
      await api.db.delete(offers).where(inArray(offers.id, made));
    }
    // No offer has the word now: the search reads it as a misspelling of another, without these.
    const { body } = await call(api, "/public/offers/?search=marimba");
    for (const id of made) expect(body.results.map((o: any) => o.uuid)).not.toContain(id);
  });

  it("only a change to the words moves search_version: a new price or rank leaves it", async () => {
    const before = await version();
    await api.db
      .update(offers)
      .set({ rank: sql`${offers.rank} + 1` })
      .where(eq(offers.id, PAELLA));
    await api.db
      .update(offers)
      .set({ rank: sql`${offers.rank} - 1` })
      .where(eq(offers.id, PAELLA));
    expect(await version()).toBe(before);
    await api.db.update(offers).set({ status: "paused" }).where(eq(offers.id, PAELLA));
    await api.db.update(offers).set({ status: "active" }).where(eq(offers.id, PAELLA));
    expect(await version()).not.toBe(before);
    expect((await call(api, "/public/offers/?search=paella")).body.results[0].uuid).toBe(PAELLA);
  });
});

describe("searchTerms", () => {
  it("folds, splits, drops short and stop words, and adds synonyms", () => {
    expect(searchTerms("  Cena ROMÁNTICA para 2 ")).toEqual([["cena"], ["romantica"]]);
    expect(searchTerms("spa")).toEqual([["spa", "termal", "termas", "balneario"]]);
    expect(searchTerms("%_\\")).toEqual([]);
    expect(searchTerms("a.*b|c")).toEqual([]);
  });
});
