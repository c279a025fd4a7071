import type { APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { DEMO_PARTNER, DEMO_STAFF } from "#api/db/demo-accounts";
import { expect } from "./fixtures";

/** A fresh token for each call: the browser suite's access tokens live a few seconds (refresh is tested). */
async function headersFor(request: APIRequestContext, user: { email: string; password: string }) {
  const login = await request.post("/api/v0/auth/jwt/create/", { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(200);
  return { Authorization: `JWT ${((await login.json()) as { access: string }).access}` };
}

export type MadeOffer = {
  uuid: string;
  title: string;
  price_options: {
    uuid: string;
    title: string;
    actual_price: string;
    regular_price: string;
    available: number;
    per_customer: number | null;
  }[];
};

/**
 * Offers of the demo partner made through the API, as a real client would, so a test of one
 * screen does not click through the others: a draft, or one on sale (a cover, submitted, approved).
 */
export async function partnerOffer(request: APIRequestContext, title: string, { active }: { active: boolean }): Promise<MadeOffer> {
  const partner = () => headersFor(request, DEMO_PARTNER);
  const { results } = (await (await request.get("/api/v0/organizations/", { headers: await partner() })).json()) as {
    results: { uuid: string }[];
  };
  const created = await request.post("/api/v0/offers/", {
    headers: await partner(),
    data: {
      organization: results[0].uuid,
      title,
      summary: "Dos horas de ruta con guía y un picnic de productos de la zona.",
      description: "Salida desde el puerto.",
      conditions: "Reserva previa por teléfono.",
      category: "leisure",
      region: "Barcelona",
      price_options: [{ title: "Ruta para 1", actual_price: "25.00", regular_price: "40.00", available: 30, per_customer: 4 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const offer = (await created.json()) as MadeOffer;
  if (!active) return offer;
  const cover = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 140 } } })
    .png()
    .toBuffer();
  const uploaded = await request.post("/api/v0/offers/images/", {
    headers: await partner(),
    multipart: {
      offer: offer.uuid,
      cover: "true",
      alt: "Kayaks en la orilla",
      image: { name: "portada.png", mimeType: "image/png", buffer: cover },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  expect(
    (await request.patch(`/api/v0/offers/${offer.uuid}/`, { headers: await partner(), data: { status: "pending_review" } })).status(),
  ).toBe(200);
  const approved = await request.patch(`/api/v0/offers/${offer.uuid}/`, {
    headers: await headersFor(request, DEMO_STAFF),
    data: { status: "active" },
  });
  expect(approved.status()).toBe(200);
  return (await approved.json()) as MadeOffer;
}

/** The demo partner changes an offer through the API; answers the change now waiting, if any. */
export async function proposeChange(
  request: APIRequestContext,
  offer: string,
  change: Record<string, unknown>,
): Promise<{ uuid: string } | null> {
  const saved = await request.patch(`/api/v0/offers/${offer}/`, { headers: await headersFor(request, DEMO_PARTNER), data: change });
  expect(saved.status(), await saved.text()).toBe(200);
  return ((await saved.json()) as { revision: { uuid: string } | null }).revision;
}

/** Staff decide a change through the API. */
export async function decideChange(
  request: APIRequestContext,
  revision: string,
  decision: { status: "approved" } | { status: "rejected"; review_note: string },
) {
  const decided = await request.patch(`/api/v0/offers/revisions/${revision}/`, {
    headers: await headersFor(request, DEMO_STAFF),
    data: decision,
  });
  expect(decided.status(), await decided.text()).toBe(200);
}

/** The demo partner deletes every photo of one of its offers, as «Eliminar» in its portal does. */
export async function removeOfferPhotos(request: APIRequestContext, offer: string): Promise<void> {
  const { results } = (await (
    await request.get(`/api/v0/offers/images/?offer=${offer}`, { headers: await headersFor(request, DEMO_PARTNER) })
  ).json()) as { results: { uuid: string }[] };
  for (const image of results) {
    const deleted = await request.delete(`/api/v0/offers/images/${image.uuid}/`, { headers: await headersFor(request, DEMO_PARTNER) });
    expect(deleted.status(), await deleted.text()).toBe(204);
  }
}
