/**
 * The catalogue's listing, GET /public/offers/: its filters, search and pages, each offer once and
 * in rank order; and no query string, however odd, makes it fail with a 500.
 */
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { offers } from "#api/db/schema";
import { seedUuid } from "#api/db/seed";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "#rules/constants";
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";
import { expectSpanish, someOffer } from "./_helpers";
import { BRUNCH_OFFER as CAFE, PAELLA_OFFER as PAELLA } from "./_seeded-offers";

let activeCount: number;

withFileApi();
beforeAll(async () => {
  const [row] = await api.db
    .select({ n: sql<number>`count(*)::int` })
    .from(offers)
    .where(eq(offers.status, "active"));
  activeCount = Number(row.n);
});

async function countWhere(where: ReturnType<typeof and>) {
  const [row] = await api.db
    .select({ n: sql<number>`count(*)::int` })
    .from(offers)
    .where(and(eq(offers.status, "active"), where));
  return Number(row.n);
}

describe("GET /public/offers/", () => {
  it("answers {count, next, previous, results} with 24 offers by default", async () => {
    const { status, body, headers } = await call(api, "/public/offers/");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(Object.keys(body).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(body.count).toBe(activeCount);
    expect(body.count).toBeGreaterThan(PAGE_SIZE_DEFAULT);
    expect(body.results).toHaveLength(PAGE_SIZE_DEFAULT);
    expect(body.previous).toBeNull();
    // Relative, as on every list of the API: the client resolves it against what it asked.
    expect(body.next).toBe(`/api/v0/public/offers/?page=2`);
    const offer = body.results[0];
    for (const key of ["uuid", "title", "summary", "category", "region", "images", "price_options", "organization"]) {
      expect(offer).toHaveProperty(key);
    }
  });

  it("takes page_size up to 100", async () => {
    const { status, body } = await call(api, `/public/offers/?page_size=${PAGE_SIZE_MAX}`);
    expect(status).toBe(200);
    expect(body.results).toHaveLength(Math.min(activeCount, PAGE_SIZE_MAX));
    const over = await call(api, `/public/offers/?page_size=${PAGE_SIZE_MAX + 1}`);
    expect(over.status).toBe(400);
    expectSpanish(over.body.detail);
  });

  it("filters by category", async () => {
    const { status, body } = await call(api, "/public/offers/?category=restaurants&page_size=100");
    expect(status).toBe(200);
    expect(body.count).toBe(await countWhere(eq(offers.category, "restaurants")));
    expect(body.count).toBeGreaterThan(0);
    expect(body.results.every((o: any) => o.category === "restaurants")).toBe(true);
  });

  it("filters by region (province with accents) and treats España as the whole country", async () => {
    const { status, body } = await call(api, `/public/offers/?region=${encodeURIComponent("Málaga")}&page_size=100`);
    expect(status).toBe(200);
    expect(body.count).toBe(await countWhere(eq(offers.province, "Málaga")));
    expect(body.count).toBeGreaterThan(0);
    expect(body.results.every((o: any) => o.region === "Málaga")).toBe(true);
    const spain = await call(api, `/public/offers/?region=${encodeURIComponent("España")}`);
    expect(spain.status).toBe(200);
    expect(spain.body.count).toBe(activeCount);
  });

  it("combines filters", async () => {
    const { body } = await call(api, `/public/offers/?category=restaurants&region=Barcelona&page_size=100`);
    expect(body.count).toBe(await countWhere(and(eq(offers.category, "restaurants"), eq(offers.province, "Barcelona"))));
    expect(body.results.map((o: any) => o.uuid)).toContain(PAELLA);
  });

  it.each([
    ["cafe", CAFE],
    ["Café", CAFE],
    ["CAFÉ", CAFE],
    ["PAELLA", PAELLA],
    ["paella", PAELLA],
    ["  Paella  ", PAELLA],
  ])("search %j is case- and accent-insensitive", async (term, expected) => {
    const { status, body } = await call(api, `/public/offers/?search=${encodeURIComponent(term)}`);
    expect(status).toBe(200);
    expect(body.count).toBe(1);
    expect(body.results[0].uuid).toBe(expected);
  });

  // Relies on lower() folding non-ASCII letters, which a database created with LC_CTYPE=C does not do.
  it("search finds titles written with upper-case accented letters", async () => {
    const [offer] = await api.db
      .select()
      .from(offers)
      .where(eq(offers.id, await someOffer(api, 20)));
    const [created] = await api.db
      .insert(offers)
      .values({
        organizationId: offer.organizationId,
        title: "ÓPTICA ÚNICA DE ÁVILA",
        summary: "Revisión visual completa",
        category: "services",
        province: "Ávila",
        rank: 5000,
      })
      .returning({ id: offers.id });
    try {
      const { body } = await call(api, `/public/offers/?search=optica%20unica`);
      expect(body.results.map((o: any) => o.uuid)).toEqual([created.id]);
    } finally {
      await api.db.delete(offers).where(eq(offers.id, created.id));
    }
  });

  it("search treats % and _ literally", async () => {
    for (const term of ["%", "_", "\\"]) {
      const { status, body } = await call(api, `/public/offers/?search=${encodeURIComponent(term)}`);
      expect(status).toBe(200);
      expect(body.count).toBe(0);
    }
  });

  it("search with no match answers an empty page, not an error", async () => {
    const { status, body } = await call(api, "/public/offers/?search=zzzzqqqq");
    expect(status).toBe(200);
    expect(body).toMatchObject({ count: 0, next: null, previous: null, results: [] });
  });

  it("paginates with next/previous links that cover every offer once", async () => {
    const seen: string[] = [];
    let url: string | null = `${api.url}/public/offers/?page_size=7&category=`;
    let pages = 0;
    while (url) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const body: any = await response.json();
      pages += 1;
      if (pages === 1) expect(body.previous).toBeNull();
      else expect(new URL(body.previous, url).searchParams.get("page")).toBe(String(pages - 1));
      expect(new URL(url).searchParams.get("page_size")).toBe("7");
      seen.push(...body.results.map((o: any) => o.uuid));
      url = body.next ? new URL(body.next, url).toString() : null;
    }
    expect(pages).toBe(Math.ceil(activeCount / 7));
    expect(seen).toHaveLength(activeCount);
    expect(new Set(seen).size).toBe(activeCount);
  });

  it("a deep page seeks from where it began before, and is the same page as counted from the start", async () => {
    const inOrder = async () =>
      (
        await api.db
          .select({ id: offers.id })
          .from(offers)
          .where(eq(offers.status, "active"))
          .orderBy(asc(offers.rank), asc(offers.createdAt), asc(offers.id))
      ).map((r) => r.id);
    const page = async (n: number) => (await call(api, `/public/offers/?page_size=5&page=${n}`)).body.results.map((o: any) => o.uuid);
    const all = await inOrder();
    const last = Math.ceil(all.length / 5);
    // Forward (each page from the one before it), then backwards and again (each from itself).
    for (const n of [2, 3, 4, last, last - 1, 3, 2, 4]) expect(await page(n)).toEqual(all.slice((n - 1) * 5, n * 5));
    // The offer a remembered page began with leaves the catalogue: the page starts at the next one,
    // as it would counted from the start, with the current stock. Page 4 keeps its remembered start
    // for its minute, so the offer that moved up to page 3 shows again at its top.
    const [first] = await page(3);
    await api.db.update(offers).set({ status: "paused" }).where(eq(offers.id, first));
    try {
      const now = await inOrder();
      expect(await page(3)).toEqual(now.slice(10, 15));
      expect(await page(4)).toEqual(all.slice(15, 20));
      expect(now[14]).toBe(all[15]);
    } finally {
      await api.db.update(offers).set({ status: "active" }).where(eq(offers.id, first));
    }
  });

  it("a listing page is gzipped for clients that take gzip, and the same JSON for those that do not", async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get(`${api.url}/public/offers/?page_size=30`, { headers: { "accept-encoding": encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res
            .on("data", (c: Buffer) => chunks.push(c))
            .on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
            .on("error", reject);
        });
      });
    const zipped = await raw("gzip, deflate");
    const plain = await raw("identity");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(gunzipSync(zipped.body).toString("utf8"))).toEqual(JSON.parse(plain.body.toString("utf8")));
    expect(JSON.parse(plain.body.toString("utf8")).results).toHaveLength(30);
  });

  it("a gzipped listing page answers If-None-Match with 304 while it is unchanged, and anew once it changed", async () => {
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; etag?: string; body: Buffer }>((resolve, reject) => {
        http.get(`${api.url}/public/offers/?page_size=12`, { headers: { "accept-encoding": "gzip", ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res
            .on("data", (c: Buffer) => chunks.push(c))
            .on("end", () => resolve({ status: res.statusCode!, etag: res.headers.etag, body: Buffer.concat(chunks) }))
            .on("error", reject);
        });
      });
    const first = await get({});
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/"/);
    expect((await get({})).etag).toBe(first.etag);
    expect((await get({ "if-none-match": first.etag! })).status).toBe(304);
    const [{ uuid }] = JSON.parse(gunzipSync(first.body).toString("utf8")).results as { uuid: string }[];
    await api.db.execute(sql`UPDATE price_options SET available = available + 1 WHERE offer_id = ${uuid}`);
    try {
      const changed = await get({ "if-none-match": first.etag! });
      expect(changed.status).toBe(200);
      expect(changed.etag).not.toBe(first.etag);
      expect(gunzipSync(changed.body).equals(gunzipSync(first.body))).toBe(false);
    } finally {
      await api.db.execute(sql`UPDATE price_options SET available = available - 1 WHERE offer_id = ${uuid}`);
    }
  });

  it("a page past the end is empty and points back to the last page", async () => {
    const { status, body } = await call(api, "/public/offers/?page=999&page_size=10");
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    expect(body.next).toBeNull();
    expect(body.previous).toBe(`/api/v0/public/offers/?page=${Math.ceil(activeCount / 10)}&page_size=10`);
  });

  it("mainpage lists the same offers ordered by rank", async () => {
    const { status, body } = await call(api, "/public/offers/mainpage/?page_size=100");
    expect(status).toBe(200);
    const ranked = await api.db
      .select({ id: offers.id })
      .from(offers)
      .where(eq(offers.status, "active"))
      .orderBy(asc(offers.rank), asc(offers.createdAt), asc(offers.id));
    expect(body.results.map((o: any) => o.uuid)).toEqual(ranked.map((r) => r.id).slice(0, 100));
    expect(body.results[0].uuid).toBe(seedUuid("offer", "circuito-termal-retiro-madrid"));
  });

  it("archived offers are neither listed nor served", async () => {
    const id = await someOffer(api, 30);
    await api.db.update(offers).set({ status: "archived" }).where(eq(offers.id, id));
    try {
      const { body } = await call(api, "/public/offers/?page_size=100");
      expect(body.count).toBe(activeCount - 1);
      expect(body.results.map((o: any) => o.uuid)).not.toContain(id);
      expect((await call(api, `/public/offers/${id}/`)).status).toBe(404);
    } finally {
      await api.db.update(offers).set({ status: "active" }).where(eq(offers.id, id));
    }
  });
});

describe("bad input never makes a 500", () => {
  it.each([
    "page_size=0",
    "page_size=-1",
    "page_size=10000",
    "page_size=abc",
    "page_size=1.5",
    "page_size=1e3",
    "page=0",
    "page=-3",
    "page=abc",
    "page=1.5",
    "page=99999999999999999999",
    "category=unknown",
    "category=RESTAURANTS",
    "region=Atlantis",
    "region=malaga",
    `search=${"x".repeat(201)}`,
    "search[a]=b",
    "category[a]=b",
    "page[a]=1",
    "region[]=Madrid&region[]=x",
  ])("GET /public/offers/?%s → 400 with a Spanish detail", async (qs) => {
    const { status, body, headers } = await call(api, `/public/offers/?${qs}`);
    expect(status).toBe(400);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expectSpanish(body.detail);
  });

  it.each(["page_size=", "page=", "category=", "region=", "search=", "page_size=5&page_size=3", "category=restaurants&category=travel"])(
    "GET /public/offers/?%s is tolerated",
    async (qs) => {
      const { status } = await call(api, `/public/offers/?${qs}`);
      expect(status).toBe(200);
    },
  );

  it("unknown API paths answer 404 JSON", async () => {
    for (const path of ["/nope/", "/public/", "/public/offers/x/y/z/", "/sales/"]) {
      const { status, body, headers } = await call(api, path);
      expect(status, path).toBe(404);
      expect(headers.get("content-type")).toMatch(/application\/json/);
      expectSpanish(body.detail);
    }
  });

  it("malformed JSON bodies answer 400 with a Spanish detail", async () => {
    for (const path of ["/sales/validate/", "/sales/create/", "/public/offers/apply-promocode/"]) {
      const { status, body } = await call(api, path, { method: "POST", body: "{not json" });
      expect(status, path).toBe(400);
      expectSpanish(body.detail);
    }
  });
});
