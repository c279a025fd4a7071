/**
 * Fixtures for the partner and staff side: five callers (anonymous, a customer, partners of two
 * different organisations, staff), two organisations with an offer each, and a paid purchase.
 */
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { organizationMembers, organizations, users } from "#api/db/schema";
import type { Role } from "#rules/roles";
import { afterAll, beforeAll } from "vitest";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, newEmail } from "./_helpers";

export type Who = "anonymous" | "customer" | "partnerA" | "partnerB" | "staff";
export const WHO: Who[] = ["anonymous", "customer", "partnerA", "partnerB", "staff"];

type Account = { id: string; email: string; role: Role; token: string };
/** Real accounts with real access tokens (POST /auth/jwt/create/), made by makeWorld. */
export const ACTORS = {} as Record<Exclude<Who, "anonymous">, Account>;

const ROLE_OF: Record<Exclude<Who, "anonymous">, Role> = { customer: "customer", partnerA: "partner", partnerB: "partner", staff: "staff" };

async function makeAccount(api: TestApi, email: string, role: Role, firstName: string): Promise<Account> {
  const [user] = await api.db
    .insert(users)
    .values({ email, passwordHash: DEMO_PASSWORD_HASH, role, firstName, emailVerifiedAt: new Date() })
    .returning();
  const login = await call(api, "/auth/jwt/create/", { body: { email, password: DEMO_PASSWORD } });
  if (login.status !== 200) throw new Error(JSON.stringify(login.body));
  return { id: user.id, email, role, token: login.body.access };
}

async function makeAccounts(api: TestApi) {
  const tag = randomUUID().slice(0, 6);
  for (const [who, role] of Object.entries(ROLE_OF) as [Exclude<Who, "anonymous">, Role][]) {
    ACTORS[who] = await makeAccount(api, `${who.toLowerCase()}.${tag}@correo.es`, role, who);
  }
}

/** One more member of an organisation, for a test whose counters (rate limits) must start at zero. */
export async function newPartner(api: TestApi, organizationId: string): Promise<Account> {
  const account = await makeAccount(api, `socio.${randomUUID().slice(0, 8)}@correo.es`, "partner", "Socio");
  await api.db.insert(organizationMembers).values({ organizationId, userId: account.id });
  return account;
}

export function as(who: Who): Record<string, string> {
  return who === "anonymous" ? {} : { authorization: `JWT ${ACTORS[who].token}` };
}

export function callAs(api: TestApi, who: Who, path: string, init: { method?: string; body?: unknown } = {}) {
  return call(api, path, { ...init, headers: as(who) });
}

export const validOffer = (organization: string, extra: Record<string, unknown> = {}) => ({
  organization,
  title: "Menú degustación para dos",
  summary: "Siete platos de temporada con maridaje en el centro de la ciudad.",
  description: "Una cena larga y tranquila.",
  conditions: "Reserva previa por teléfono.",
  category: "restaurants",
  region: "Madrid",
  address: "Calle Mayor 1, Madrid",
  offer_type: "regular",
  valid_from: "2026-01-01",
  valid_until: "2027-12-31",
  price_options: [
    { title: "Menú para 2", actual_price: "59.90", regular_price: "90.00", available: 50, per_customer: 4 },
    { title: "Menú para 4", actual_price: "109.00", regular_price: "180.00", available: 20, per_customer: null },
  ],
  ...extra,
});

export async function png(width = 1200, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .png()
    .toBuffer();
}

export async function uploadImage(
  api: TestApi,
  who: Who,
  fields: Record<string, string>,
  file: Buffer,
  name = "foto.png",
  type = "image/png",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("image", new Blob([new Uint8Array(file)], { type }), name);
  const response = await fetch(`${api.url}/offers/images/`, { method: "POST", body: form, headers: as(who) });
  return { status: response.status, body: (await response.json()) as any };
}

export type World = { orgA: string; orgB: string; offerA: string; offerB: string; optionA: string; optionB: string };

/** An offer on sale: created by its partner with a cover, submitted, approved by staff. Answers it as its partner sees it. */
export async function activeOffer(api: TestApi, who: "partnerA" | "partnerB", organization: string, extra: Record<string, unknown> = {}) {
  const created = await callAs(api, who, "/offers/", { body: validOffer(organization, extra) });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const uploaded = await uploadImage(api, who, { offer: created.body.uuid, cover: "true", alt: "Plato" }, await png());
  if (uploaded.status !== 201) throw new Error(JSON.stringify(uploaded.body));
  await callAs(api, who, `/offers/${created.body.uuid}/`, { method: "PATCH", body: { status: "pending_review" } });
  const approved = await callAs(api, "staff", `/offers/${created.body.uuid}/`, { method: "PATCH", body: { status: "active" } });
  if (approved.status !== 200) throw new Error(JSON.stringify(approved.body));
  return approved.body as {
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
}

/** Two organisations, each with a member partner and an active offer that has a cover. */
export async function makeWorld(api: TestApi): Promise<World> {
  await makeAccounts(api);
  const [a, b] = await api.db
    .insert(organizations)
    .values([
      { name: `Restaurante A ${randomUUID().slice(0, 6)}`, email: "a@restaurante.es", taxId: "B12345674" },
      { name: `Spa B ${randomUUID().slice(0, 6)}`, email: "b@spa.es", taxId: "B87654321" },
    ])
    .returning();
  await api.db.insert(organizationMembers).values([
    { organizationId: a.id, userId: ACTORS.partnerA.id },
    { organizationId: b.id, userId: ACTORS.partnerB.id },
  ]);
  const offers: { uuid: string; option: string }[] = [];
  for (const [org, who] of [
    [a.id, "partnerA"],
    [b.id, "partnerB"],
  ] as const) {
    const offer = await activeOffer(api, who, org);
    offers.push({ uuid: offer.uuid, option: offer.price_options[0].uuid });
  }
  return { orgA: a.id, orgB: b.id, offerA: offers[0].uuid, offerB: offers[1].uuid, optionA: offers[0].option, optionB: offers[1].option };
}

/**
 * The file's test API and two partners' world, made before its tests and closed after them:
 * `withPartnerWorld((world) => ({ api, w } = world))`.
 */
export function withPartnerWorld(receive: (world: { api: TestApi; w: World }) => void, timeoutMs?: number): void {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startTestApi();
    receive({ api, w: await makeWorld(api) });
  }, timeoutMs);
  afterAll(() => api?.close());
}

/** A paid purchase of `quantity` tickets of an option; returns its coupon codes. */
export async function couponsFor(api: TestApi, option: string, price: string, quantity = 2) {
  const { purchase } = await buy(api, [{ option: { uuid: option, price }, quantity }], newEmail("cupon"));
  return purchase.items[0].coupons as string[];
}
