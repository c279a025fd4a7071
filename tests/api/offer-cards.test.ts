import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { query } from "#api/db/client";
import { offerFeedback, offerImages, offers, organizations, priceOptions } from "#api/db/schema";
import { MIN_RATINGS_SHOWN } from "#contract/feedback";
import type { OfferImage } from "#contract/offers";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ seed: false });
});
afterAll(() => api.close());

/**
 * The cards as offer_cards() built them before the heads were kept (migration 0012), straight
 * from the tables: what the kept heads must always agree with.
 */
async function cardsFromTables(ids: string[]): Promise<unknown[]> {
  const [row] = await query<{ cards: string | null }>(
    api.db,
    sql`SELECT json_agg(json_build_object(
          'uuid', o.id, 'title', o.title, 'summary', o.summary, 'category', o.category, 'region', o.province,
          'address', o.address, 'latitude', o.latitude, 'longitude', o.longitude, 'offer_type', o.offer_type,
          'valid_from', o.valid_from, 'valid_until', o.valid_until,
          'organization', json_build_object('uuid', g.id, 'name', g.name),
          'images', coalesce((SELECT json_agg(json_build_object('image_url', i.image_url, 'cover', i.cover, 'logo', i.logo, 'width', i.width, 'height', i.height, 'alt', i.alt,
                                                                'small_url', (SELECT v->>'url' FROM jsonb_array_elements(i.variants) v WHERE (v->>'width')::int < i.width
                                                                              ORDER BY (v->>'width')::int LIMIT 1))
                                              ORDER BY i.cover DESC, i.position) FROM offer_images i WHERE i.offer_id = o.id), '[]'::json),
          'price_options', coalesce((SELECT json_agg(json_build_object('uuid', p.id, 'title', p.title, 'actual_price', p.actual_price::text, 'regular_price', p.regular_price::text,
                                                                       'available', p.available, 'per_customer', p.per_customer) ORDER BY p.position)
                                     FROM price_options p WHERE p.offer_id = o.id), '[]'::json),
          'rating', (SELECT json_build_object('average', round(avg(f.stars)::numeric, 1)::float8, 'count', count(*)::int)
                     FROM offer_feedback f WHERE f.offer_id = o.id HAVING count(*) >= ${MIN_RATINGS_SHOWN}::int)
        ) ORDER BY w.n)::text AS cards
        FROM unnest(${sql.param(ids)}::uuid[]) WITH ORDINALITY AS w(id, n)
        JOIN offers o ON o.id = w.id JOIN organizations g ON g.id = o.organization_id`,
  );
  return JSON.parse(row.cards ?? "[]");
}

/** offer_cards()' text: compact JSON (migration 0021), exactly what JSON.stringify writes of it. */
async function cardsText(ids: string[]): Promise<string> {
  const [row] = await query<{ cards: string | null }>(
    api.db,
    sql`SELECT offer_cards(${sql.param(ids)}::uuid[], ${MIN_RATINGS_SHOWN}::int, false) AS cards`,
  );
  const text = row.cards ?? "[]";
  expect(text).toBe(JSON.stringify(JSON.parse(text)));
  return text;
}

async function cards(ids: string[]): Promise<unknown[]> {
  return JSON.parse(await cardsText(ids));
}

async function newOffer(organizationId: string, title: string): Promise<string> {
  const [row] = await api.db
    .insert(offers)
    .values({
      organizationId,
      title,
      summary: `Resumen de ${title}`,
      category: "restaurants",
      province: "Madrid",
      address: "Calle Mayor 1",
      latitude: 40.4,
      longitude: -3.7,
    })
    .returning({ id: offers.id });
  await api.db.insert(offerImages).values([
    {
      offerId: row.id,
      imageUrl: `/img/${row.id}-b.jpg`,
      width: 800,
      height: 600,
      alt: "Segunda",
      position: 1,
      // As an upload keeps them (the picture itself, then smaller): the smallest is the card's small copy.
      variants: [
        { url: `/img/${row.id}-b.jpg`, width: 800, height: 600 },
        { url: `/img/${row.id}-b-200.jpg`, width: 200, height: 150 },
        { url: `/img/${row.id}-b-400.jpg`, width: 400, height: 300 },
      ],
    },
    { offerId: row.id, imageUrl: `/img/${row.id}-a.jpg`, width: 800, height: 600, alt: "Portada", cover: true, position: 2 },
  ]);
  // Quotes, a backslash, an accent and a tab: offer_cards() writes the price options as text (0019).
  await api.db.insert(priceOptions).values([
    { offerId: row.id, title: 'Para dos «con "vino"» \\ café\t', actualPrice: "19.90", regularPrice: "40.00", available: 30, position: 0 },
    { offerId: row.id, title: "Para cuatro", actualPrice: "0.00", regularPrice: "80.00", available: 5, perCustomer: 2, position: 1 },
  ]);
  return row.id;
}

it("a page's cards stay what the tables say after every kind of change, and a sale touches no kept card", async () => {
  const [org] = await api.db
    .insert(organizations)
    .values({ name: `Casa ${randomUUID().slice(0, 6)}` })
    .returning({ id: organizations.id });
  const [other] = await api.db.insert(organizations).values({ name: "Otra casa" }).returning({ id: organizations.id });
  const ids = [
    await newOffer(org.id, "Cena para dos"),
    await newOffer(org.id, "Menú degustación"),
    await newOffer(other.id, "Circuito termal"),
  ];
  const page = [ids[2], ids[0], ids[1]]; // the order asked, not the order made
  // The same text: values, keys and their order.
  const agree = async (step: string) => expect(await cardsText(page), step).toBe(JSON.stringify(await cardsFromTables(page)));

  await agree("new offers, with images and price options");
  const images = ((await cards([ids[0]])) as { images: OfferImage[] }[])[0].images;
  expect(images.map((i) => [i.alt, i.small_url])).toEqual([
    ["Portada", null],
    ["Segunda", `/img/${ids[0]}-b-200.jpg`],
  ]);

  await api.db
    .update(offers)
    .set({ title: "Cena romántica para dos", summary: "Con vino", validUntil: "2030-12-31", latitude: null })
    .where(eq(offers.id, ids[0]));
  await agree("an edited offer");
  await api.db.update(offers).set({ organizationId: other.id }).where(eq(offers.id, ids[1]));
  await agree("an offer moved to another partner");
  await api.db.update(organizations).set({ name: "Casa renombrada" }).where(eq(organizations.id, other.id));
  await agree("a renamed partner");

  await api.db.update(offerImages).set({ alt: "Portada nueva" }).where(eq(offerImages.offerId, ids[2]));
  await api.db
    .update(offerImages)
    .set({ variants: [] })
    .where(sql`${offerImages.offerId} = ${ids[1]} AND NOT ${offerImages.cover}`);
  await api.db.delete(offerImages).where(sql`${offerImages.offerId} = ${ids[0]} AND ${offerImages.cover}`);
  await api.db
    .insert(offerImages)
    .values({ offerId: ids[1], imageUrl: "/img/extra.jpg", width: 400, height: 300, alt: "Extra", position: 0 });
  await agree("images changed, removed and added");
  await api.db.delete(priceOptions).where(eq(priceOptions.offerId, ids[2]));
  await agree("an offer left without price options");

  const stars = [5, 4, 4, 2];
  for (const [i, n] of stars.entries())
    await api.db.insert(offerFeedback).values({ offerId: ids[2], email: `comprador${i}@example.com`, stars: n });
  await agree("ratings given");
  expect(((await cards([ids[2]])) as { rating: unknown }[])[0].rating).toEqual({ average: 3.8, count: 4 });
  await api.db.update(offerFeedback).set({ stars: 1 }).where(eq(offerFeedback.email, "comprador0@example.com"));
  await agree("a rating changed");
  await api.db
    .delete(offerFeedback)
    .where(sql`${offerFeedback.offerId} = ${ids[2]} AND ${offerFeedback.email} <> 'comprador1@example.com'`);
  await agree("ratings withdrawn below the number shown");
  expect(((await cards([ids[2]])) as { rating: unknown }[])[0].rating).toBeNull();

  // What sales and the daily sweeps change is read live or is not on the card: no head is rewritten.
  const before = await query<{ offer_id: string; xmin: string }>(
    api.db,
    sql`SELECT offer_id, xmin::text FROM offer_card_heads WHERE offer_id = ANY(${sql.param(ids)}::uuid[]) ORDER BY offer_id`,
  );
  await api.db
    .update(priceOptions)
    .set({ available: sql`${priceOptions.available} - 3` })
    .where(eq(priceOptions.offerId, ids[0]));
  await api.db.update(offers).set({ rank: 5, status: "archived" }).where(eq(offers.id, ids[1]));
  expect(
    await query(
      api.db,
      sql`SELECT offer_id, xmin::text FROM offer_card_heads WHERE offer_id = ANY(${sql.param(ids)}::uuid[]) ORDER BY offer_id`,
    ),
  ).toEqual(before);
  await agree("stock sold and an offer archived");
  const [archived] = await query<{ cards: string | null }>(
    api.db,
    sql`SELECT offer_cards(${sql.param([ids[1]])}::uuid[], 0, true) AS cards`,
  );
  expect(archived.cards, "active_only skips an archived offer").toBeNull();

  await api.db.delete(offers).where(eq(offers.id, ids[1]));
  expect(await cards(page)).toEqual(await cardsFromTables([ids[2], ids[0]]));
});

it("the API serves an edited offer's new title at once", async () => {
  const [org] = await api.db.insert(organizations).values({ name: "Casa de la API" }).returning({ id: organizations.id });
  const id = await newOffer(org.id, "Título de antes");
  await api.db.update(offers).set({ title: "Título de después" }).where(eq(offers.id, id));
  const res = await call(api, `/public/offers/${id}/`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ uuid: id, title: "Título de después", organization: { name: "Casa de la API" } });
});
