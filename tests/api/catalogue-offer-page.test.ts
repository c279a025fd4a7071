/**
 * One offer's page and what hangs off it: GET /public/offers/{id}/, the offers picked by id
 * (/selected/), and the offers nearest to it (/nearby/).
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { offers, organizations } from "#api/db/schema";
import { seedUuid } from "#api/db/seed";
import { call } from "#tests/support/api-server";
import { nearbyByScan } from "#tests/support/nearby";
import { api, withFileApi } from "./_file-api";
import { expectSpanish } from "./_helpers";
import { BRUNCH_OFFER as CAFE, PAELLA_OFFER as PAELLA } from "./_seeded-offers";

const MONEY = /^\d+\.\d{2}$/;

withFileApi();

describe("GET /public/offers/{id}/", () => {
  it("answers the offer with cover image first and price options as money strings, never cached", async () => {
    const { status, body, headers } = await call(api, `/public/offers/${PAELLA}/`);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.uuid).toBe(PAELLA);
    expect(body.title).toMatch(/Paella/);
    expect(body.region).toBe("Barcelona");
    expect(typeof body.description).toBe("string");
    expect(typeof body.conditions).toBe("string");
    expect(body.organization).toMatchObject({ name: "La Barca de Sant Miquel" });
    expect(body.images.length).toBeGreaterThan(1);
    expect(body.images[0].cover).toBe(true);
    expect(body.images.filter((i: any) => i.cover)).toHaveLength(1);
    for (const image of body.images)
      expect(image).toEqual(
        expect.objectContaining({ image_url: expect.any(String), width: expect.any(Number), height: expect.any(Number) }),
      );
    // Each photo names its 400×250 copy (the file's own size is checked in seed-data.test.ts); the logo has none.
    for (const image of body.images)
      expect(image.small_url, image.image_url).toBe(image.logo ? null : image.image_url.replace("/images/demo/", "/images/demo/400/"));
    expect(body.price_options).toHaveLength(2);
    expect(body.price_options[0]).toEqual({
      uuid: seedUuid("price-option", "paella-marinera-barceloneta:0"),
      title: "Menú para 2 personas",
      actual_price: "39.90",
      regular_price: "68.00",
      available: 240,
      per_customer: 4,
    });
    for (const option of body.price_options) {
      expect(option.actual_price).toMatch(MONEY);
      expect(option.regular_price).toMatch(MONEY);
      expect(Number.isInteger(option.available)).toBe(true);
    }
  });

  it("answers the offer's own text and its organisation's contact, and the same card as the listing", async () => {
    const { body } = await call(api, `/public/offers/${PAELLA}/`);
    const [stored] = await api.db
      .select({
        description: offers.description,
        conditions: offers.conditions,
        organizationId: offers.organizationId,
        email: organizations.email,
        phone: organizations.phone,
        website: organizations.website,
        name: organizations.name,
      })
      .from(offers)
      .innerJoin(organizations, eq(organizations.id, offers.organizationId))
      .where(eq(offers.id, PAELLA));
    expect(body.description).toBe(stored.description);
    expect(body.conditions).toBe(stored.conditions);
    expect(body.organization).toEqual({
      uuid: stored.organizationId,
      name: stored.name,
      email: stored.email,
      phone: stored.phone,
      website: stored.website,
      // Fewer than MIN_RATINGS_SHOWN ratings of this partner's offers in the demo data.
      rating: null,
    });
    const listed = (await call(api, "/public/offers/?page_size=100")).body.results.find((o: any) => o.uuid === PAELLA);
    // The page's own fields: its text, the sold count, reviews and whether it is still on sale.
    const { description: _d, conditions: _c, organization, sold_count: _s, reviews: _r, on_sale: _o, sale_until: _u, ...card } = body;
    const { organization: listedOrganization, ...listedCard } = listed;
    expect(card).toEqual(listedCard);
    expect(organization).toMatchObject(listedOrganization);
  });

  it("cover first even when the cover is not the first image stored", async () => {
    const { body } = await call(api, "/public/offers/?page_size=100");
    for (const offer of body.results) {
      if (offer.images.some((i: any) => i.cover)) expect(offer.images[0].cover).toBe(true);
    }
  });

  it("accepts an upper-case uuid", async () => {
    const { status, body } = await call(api, `/public/offers/${PAELLA.toUpperCase()}/`);
    expect(status).toBe(200);
    expect(body.uuid).toBe(PAELLA);
  });

  it("404 JSON for an unknown uuid", async () => {
    const { status, body, headers } = await call(api, `/public/offers/${randomUUID()}/`);
    expect(status).toBe(404);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(Object.keys(body)).toEqual(["detail"]);
    expectSpanish(body.detail);
  });

  it("400 for an id that is not a uuid", async () => {
    for (const id of ["abc", "123", `${PAELLA}x`, "%27%20OR%201%3D1"]) {
      const { status, body } = await call(api, `/public/offers/${id}/`);
      expect(status, id).toBe(400);
      expectSpanish(body.detail);
    }
  });
});

describe("GET /public/offers/selected/", () => {
  it("keeps the order asked and skips unknown ids", async () => {
    const unknown = randomUUID();
    const { status, body, headers } = await call(api, `/public/offers/selected/?uuids=${PAELLA}&uuids=${unknown}&uuids=${CAFE}`);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.map((o: any) => o.uuid)).toEqual([PAELLA, CAFE]);
    const reversed = await call(api, `/public/offers/selected/?uuids=${CAFE}&uuids=${PAELLA}`);
    expect(reversed.body.map((o: any) => o.uuid)).toEqual([CAFE, PAELLA]);
  });

  it("also takes comma-separated and upper-case ids, once each", async () => {
    const { status, body } = await call(api, `/public/offers/selected/?uuids=${CAFE.toUpperCase()},${PAELLA}&uuids=${CAFE}`);
    expect(status).toBe(200);
    expect(body.map((o: any) => o.uuid)).toEqual([CAFE, PAELLA]);
  });

  it("no ids → empty list", async () => {
    const { status, body } = await call(api, "/public/offers/selected/");
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it("400 for a malformed uuid", async () => {
    const { status, body } = await call(api, `/public/offers/selected/?uuids=${PAELLA}&uuids=not-a-uuid`);
    expect(status).toBe(400);
    expectSpanish(body.detail);
  });

  it("400 for more than 100 ids", async () => {
    const ids = Array.from({ length: 101 }, () => randomUUID()).join(",");
    const { status, body } = await call(api, `/public/offers/selected/?uuids=${ids}`);
    expect(status).toBe(400);
    expectSpanish(body.detail);
  });
});

describe("GET /public/offers/{id}/nearby/", () => {
  const distance = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) =>
    (a.latitude - b.latitude) ** 2 + ((a.longitude - b.longitude) * Math.cos((b.latitude * Math.PI) / 180)) ** 2;

  it("answers other offers nearest first, without the offer itself", async () => {
    const origin = (await call(api, `/public/offers/${CAFE}/`)).body;
    const { status, body } = await call(api, `/public/offers/${CAFE}/nearby/?page_size=20`);
    expect(status).toBe(200);
    expect(body.results).toHaveLength(20);
    expect(body.results.map((o: any) => o.uuid)).not.toContain(CAFE);
    const distances = body.results.map((o: any) => distance(o, origin));
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThanOrEqual(distances[i - 1] - 1e-12);
    // Café Olmo is in Madrid: its nearest neighbours are Madrid offers.
    expect(body.results[0].region).toBe("Madrid");
  });

  it("answers, for every offer, what ranking every active offer by that distance answers", async () => {
    const ids = (await api.db.select({ id: offers.id }).from(offers).where(eq(offers.status, "active"))).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(40);
    for (const id of ids) {
      for (const size of [1, 6, 20]) {
        const { body } = await call(api, `/public/offers/${id}/nearby/?page_size=${size}`);
        expect(
          body.results.map((o: any) => o.uuid),
          `${id} ${size}`,
        ).toEqual(await nearbyByScan(api.db, id, size));
      }
    }
  });

  it("defaults to 6 results", async () => {
    const { body } = await call(api, `/public/offers/${PAELLA}/nearby/`);
    expect(body.results).toHaveLength(6);
    expect(body.results.map((o: any) => o.uuid)).not.toContain(PAELLA);
  });

  it("404 for an unknown offer, 400 for a bad id or page_size", async () => {
    const unknown = await call(api, `/public/offers/${randomUUID()}/nearby/`);
    expect(unknown.status).toBe(404);
    expectSpanish(unknown.body.detail);
    const bad = await call(api, "/public/offers/nope/nearby/");
    expect(bad.status).toBe(400);
    expectSpanish(bad.body.detail);
    const size = await call(api, `/public/offers/${PAELLA}/nearby/?page_size=0`);
    expect(size.status).toBe(400);
    expectSpanish(size.body.detail);
  });
});
