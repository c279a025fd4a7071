/**
 * Rating an offer: with the link of the feedback mail or the buyer's own account, never as
 * someone else; the average an offer shows; and the mail that asks for the rating.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openLink, sealLink } from "#platform/signatures.server";
import { DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { users } from "#api/db/schema";
import { query } from "#api/db/client";
import { feedbackAfterRedemptionStatement } from "#api/services/feedback";
import { seedDemoRatings } from "#api/db/seed-ratings";
import { call } from "#tests/support/api-server";
import { linksOf } from "#tests/support/smtp";
import { api } from "./_file-api";
import { expectNoAddress, expectSpanish, makeOption, newEmail, someOffer } from "./_helpers";
import { NEW_SECRET, OLD_SECRET, purchase, send, smtp, unsubscribeToken, withMailApi } from "./_mail-links";

withMailApi();

describe("/public/offers/feedback/", () => {
  const post = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    call(api, "/public/offers/feedback/", { body, headers });
  const linkFor = (email: string, offer: string, secret = NEW_SECRET) => sealLink([secret], "feedback", { email, offer });
  const rows = (email: string) =>
    query<{ n: number; stars: number }>(
      api.db,
      sql`SELECT count(*)::int AS n, max(stars) AS stars FROM offer_feedback WHERE email = ${email}`,
    );
  /** A customer account with a proven address, logged in: its access token's header. */
  async function account(email: string) {
    await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() });
    const pair = await call(api, "/auth/jwt/create/", { body: { email, password: "ofertas-demo-2026" } });
    expect(pair.status).toBe(200);
    return { Authorization: `JWT ${pair.body.access}` };
  }

  it("rates with the mail's link token (old or new secret); one rating per buyer and offer, a later one replaces the stars", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("valora");
    await purchase(option, buyer);
    const first = await post({ feedback_stars: 2, t: linkFor(buyer.toUpperCase(), option.offerId, OLD_SECRET) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ feedback_stars: 2, offer_uuid: option.offerId, user_email: buyer });
    // Clicking other stars of the same mail: one rating, the last.
    for (const stars of [1, 2, 3, 4, 5, 4]) await post({ feedback_stars: stars, t: linkFor(buyer, option.offerId) });
    expect(await rows(buyer)).toEqual([{ n: 1, stars: 4 }]);
    // The contract's fields may come too, when they are the link's.
    const same = await post({ feedback_stars: 3, t: linkFor(buyer, option.offerId), offer_uuid: option.offerId, user_email: buyer });
    expect(same.body.id).toBe(first.body.id);
  });

  it("without the buyer's link or account, answers the same whether or not that address bought the offer, and saves nothing", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("compro");
    const stranger = newEmail("no-compro");
    await purchase(option, buyer);
    const other = await makeOption(api, { available: 50, offerId: await someOffer(api, 3) });
    const answers = [];
    for (const input of [
      { feedback_stars: 1, offer_uuid: option.offerId, user_email: buyer },
      { feedback_stars: 1, offer_uuid: option.offerId, user_email: stranger },
      { feedback_stars: 1, offer_uuid: "6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f", user_email: buyer },
      // A real link, but of another purpose, offer or address.
      { feedback_stars: 1, t: unsubscribeToken(buyer) },
      { feedback_stars: 1, t: linkFor(buyer, option.offerId), offer_uuid: other.offerId },
      { feedback_stars: 1, t: linkFor(buyer, option.offerId), user_email: stranger },
      { feedback_stars: 1, t: linkFor(buyer, option.offerId, "otro-secreto-que-no-es-nuestro-000") },
      { feedback_stars: 1, t: "no-es-un-token" },
    ]) {
      const { status, body } = await post(input);
      answers.push({ status, body });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0].status).toBe(403);
    expectSpanish(answers[0].body.detail);
    expect(await rows(buyer)).toEqual([{ n: 0, stars: null }]);
    expect(await rows(stranger)).toEqual([{ n: 0, stars: null }]);
  });

  it("rates with the buyer's own account; an account rates only what it bought, and only as itself", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("cuenta-compra");
    await purchase(option, buyer);
    const auth = await account(buyer);
    const saved = await post({ feedback_stars: 5, offer_uuid: option.offerId }, auth);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ feedback_stars: 5, user_email: buyer });
    const mine = await call(api, `/public/offers/feedback/mine/?offer_uuid=${option.offerId}`, { headers: auth });
    expect(mine.body).toEqual({ offer_uuid: option.offerId, feedback: saved.body });
    // Someone else's address in the body is not this account's to give.
    const asOther = await post({ feedback_stars: 1, offer_uuid: option.offerId, user_email: newEmail("otra") }, auth);
    expect(asOther.status).toBe(403);
    // Its own purchases only: the account knows what it bought, so it may be told.
    const notBought = await post(
      { feedback_stars: 1, offer_uuid: (await makeOption(api, { available: 5, offerId: await someOffer(api, 4) })).offerId },
      auth,
    );
    expect(notBought.status).toBe(403);
    expect(notBought.body.detail).toMatch(/comprado/);
    expect((await call(api, `/public/offers/feedback/mine/?offer_uuid=${option.offerId}`)).status).toBe(403);
  });

  it("checks its bounds with Spanish messages", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("limites");
    await purchase(option, buyer);
    const t = linkFor(buyer, option.offerId);
    for (const bad of [0, 6, 2.5, "muchas", null]) {
      const answer = await post({ feedback_stars: bad, t });
      expect(answer.status, String(bad)).toBe(400);
      expectSpanish(answer.body.detail);
    }
    expect((await post({ feedback_stars: 4, offer_uuid: "no-es-uuid", user_email: buyer })).status).toBe(400);
    expect((await post({ feedback_stars: 4, offer_uuid: option.offerId, user_email: "no-es-correo" })).status).toBe(400);
    const neither = await post({ feedback_stars: 4 });
    expect(neither.status).toBe(400);
    expectSpanish(neither.body.detail);
    expect((await post({ feedback_stars: 4, t: linkFor(buyer, "6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f") })).status).toBe(404);
  });

  it("edits by id only with the buyer's link or account; PATCH changes what it is given, PUT replaces", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("cambia");
    const other = newEmail("cambia-otro");
    await purchase(option, buyer);
    await purchase(option, other);
    const t = linkFor(buyer, option.offerId);
    const { body } = await post({ feedback_stars: 3, t });
    const path = `/public/offers/feedback/${body.id}/`;
    // No credentials, or another buyer's link of the same offer: nothing changes.
    expect((await call(api, path, { method: "PATCH", body: { comment: "Pésimo." } })).status).toBe(403);
    expect((await call(api, path, { method: "PUT", body: { feedback_stars: 1 } })).status).toBe(403);
    expect((await call(api, path, { method: "PATCH", body: { comment: "Pésimo.", t: unsubscribeToken(buyer) } })).status).toBe(403);
    expect((await call(api, path, { method: "PATCH", body: { feedback_stars: 1, t: linkFor(other, option.offerId) } })).status).toBe(404);
    expect((await call(api, path, { method: "PATCH", body: { feedback_stars: 1 }, headers: await account(other) })).status).toBe(404);
    expect((await call(api, `${path}?${new URLSearchParams({ t })}`)).body).toMatchObject({
      feedback_stars: 3,
      comment: "",
      user_email: buyer,
    });

    const patched = await call(api, path, { method: "PATCH", body: { comment: "Muy buena atención.", t } });
    expect(patched.body).toMatchObject({ feedback_stars: 3, comment: "Muy buena atención." });
    // A later star link keeps the comment.
    expect((await post({ feedback_stars: 5, t })).body).toMatchObject({ feedback_stars: 5, comment: "Muy buena atención." });
    expect((await call(api, path, { method: "PUT", body: { comment: "sin estrellas", t } })).status).toBe(400);
    const put = await call(api, path, { method: "PUT", body: { feedback_stars: 4, t } });
    expect(put.body).toMatchObject({ feedback_stars: 4, comment: "" });
    expect((await call(api, path, { method: "PATCH", body: { feedback_stars: 9, t } })).status).toBe(400);
    expect((await call(api, path, { method: "PATCH", body: { comment: "x" }, headers: await account(buyer) })).body).toMatchObject({
      comment: "x",
    });
    expect(
      (await call(api, `/public/offers/feedback/6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f/`, { method: "PATCH", body: { comment: "x", t } }))
        .status,
    ).toBe(404);
    expect((await call(api, `/public/offers/feedback/nada/`, { method: "PATCH", body: { comment: "x", t } })).status).toBe(404);
  });

  it("GET by id shows the buyer's address to that buyer only", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("lectura");
    await purchase(option, buyer);
    const t = linkFor(buyer, option.offerId);
    const { body } = await post({ feedback_stars: 4, t });
    const path = `/public/offers/feedback/${body.id}/`;
    const anyone = await call(api, path);
    expect(anyone.status).toBe(200);
    expect(anyone.body).toEqual({ id: body.id, feedback_stars: 4, offer_uuid: option.offerId, comment: "" });
    expect(JSON.stringify(anyone.body)).not.toContain(buyer);
    const otherLink = await call(api, `${path}?${new URLSearchParams({ t: linkFor(newEmail("curioso"), option.offerId) })}`);
    expect(otherLink.body.user_email).toBeUndefined();
    expect((await call(api, `${path}?${new URLSearchParams({ t })}`)).body.user_email).toBe(buyer);
    expect((await call(api, path, { headers: await account(buyer) })).body.user_email).toBe(buyer);
    // The link's own reading: its offer and the rating, none before the first.
    const mine = await call(api, `/public/offers/feedback/mine/?${new URLSearchParams({ t })}`);
    expect(mine.body).toEqual({ offer_uuid: option.offerId, feedback: { ...body, feedback_stars: 4 } });
    const fresh = await call(
      api,
      `/public/offers/feedback/mine/?${new URLSearchParams({ t: linkFor(newEmail("sin-valorar"), option.offerId) })}`,
    );
    expect(fresh.body).toEqual({ offer_uuid: option.offerId, feedback: null });
  });

  it("the offer shows its average and count once three buyers have rated", async () => {
    const option = await makeOption(api, {
      available: 50,
      offerId: (await query<{ id: string }>(api.db, sql`SELECT id FROM offers WHERE status = 'active' ORDER BY rank DESC, id LIMIT 1`))[0]
        .id,
    });
    const rating = async () => (await call(api, `/public/offers/${option.offerId}/`)).body.rating;
    const buyers = [newEmail("r1"), newEmail("r2"), newEmail("r3")];
    const before = await rating();
    for (const [i, buyer] of buyers.entries()) {
      await purchase(option, buyer);
      await post({ feedback_stars: [5, 4, 4][i], t: linkFor(buyer, option.offerId) });
      if (i < 2 && before === null) expect(await rating()).toBeNull();
    }
    const after = await rating();
    expect(after.count).toBe((before?.count ?? 0) + 3);
    if (!before) expect(after).toEqual({ average: 4.3, count: 3 });
    const list = await call(api, `/public/offers/?page_size=100`);
    const card = list.body.results.find((o: { uuid: string }) => o.uuid === option.offerId);
    if (card) expect(card.rating).toEqual(after);
  });
});

describe("demo ratings", () => {
  it("the demo catalogue's first offers show an average from the first start", async () => {
    const seeded = await seedDemoRatings(api.db);
    expect(seeded).toBeGreaterThanOrEqual(18);
    expect(await seedDemoRatings(api.db)).toBe(seeded); // idempotent
    const list = await call(api, "/public/offers/?page_size=100");
    const rated = list.body.results.filter((o: { rating: unknown }) => o.rating);
    expect(rated.length).toBeGreaterThanOrEqual(6);
    expect(rated[0].rating.count).toBeGreaterThanOrEqual(3);
  });
});

describe("the feedback request", () => {
  it("is queued by the purchase, brought forward by a redemption, and carries five star links with one token", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("solicitud");
    await purchase(option, buyer);
    const key = `feedback:${option.offerId}:${buyer}`;
    const due = async () =>
      new Date(
        (await query<{ send_after: string }>(api.db, sql`SELECT send_after FROM mail_outbox WHERE dedupe_key = ${key}`))[0].send_after,
      ).getTime();
    expect(await due()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    await api.db.execute(feedbackAfterRedemptionStatement({ email: buyer, offerId: option.offerId, delayHours: 0 }, sql`true`));
    expect(await due()).toBeLessThanOrEqual(Date.now() + 1000);
    await send();
    const mail = await smtp.waitFor(buyer, { subject: /Valóralo/ });
    const links = [...(mail.html as string).matchAll(/href="(https:\/\/ofertas\.example\/feedback\?[^"]+)"/g)].map(
      (m) => new URL(m[1].replace(/&amp;/g, "&")),
    );
    expect(links.map((l) => l.searchParams.get("rate"))).toEqual(["1", "2", "3", "4", "5"]);
    for (const l of links) expect([...l.searchParams.keys()]).toEqual(["rate", "t"]);
    const token = links[0].searchParams.get("t");
    expect(new Set(links.map((l) => l.searchParams.get("t")))).toEqual(new Set([token]));
    expect(openLink([NEW_SECRET], "feedback", token)).toEqual({ email: buyer, offer: option.offerId });
    expectNoAddress(linksOf(mail), buyer);
    expect(mail.headers.has("list-unsubscribe")).toBe(false);
    // The link's token rates; it unsubscribes no one.
    expect((await call(api, "/public/offers/feedback/", { body: { feedback_stars: 4, t: token } })).status).toBe(201);
    expect((await call(api, `/customer/unsubscribe/?${new URLSearchParams({ t: token! })}`)).status).toBe(400);
  });
});
