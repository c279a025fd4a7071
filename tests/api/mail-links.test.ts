import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLink, sealLink, unsubscribeSignature } from "#platform/signatures.server";
import { DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { users } from "#api/db/schema";
import { query } from "#api/db/client";
import { digestPeriod, queueDigestNow, runScheduledDigest } from "#api/mail/digest";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { feedbackAfterRedemptionStatement } from "#api/services/feedback";
import { seedDemoRatings } from "#api/db/seed-ratings";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { linksOf, startTestSmtp, type TestSmtp } from "#tests/support/smtp";
import {
  capture,
  expectNoAddress,
  expectSpanish,
  makeOption,
  newEmail,
  orderBody,
  sandboxAction,
  someOffer,
  type Option,
} from "./_helpers";

const OLD_SECRET = "test-secret-for-the-api-suite-0123456789";
const NEW_SECRET = "nuevo-secreto-de-sesion-0123456789abcdef";
let api: TestApi;
let smtp: TestSmtp;

const send = () => {
  // Mail links use the public origin (PUBLIC_URL); the API itself runs on 127.0.0.1.
  const config = { ...api.config, SMTP_URL: smtp.url, PUBLIC_URL: "https://ofertas.example" };
  return deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} });
};

/** A paid purchase, with or without the marketing consent ticked at checkout. */
async function purchase(option: Option, email: string, consent = false) {
  const validated = await call(api, "/sales/validate/", { body: orderBody([{ option }], email, { mail_agreement: consent }) });
  expect(validated.status, JSON.stringify(validated.body)).toBe(200);
  const created = await call(api, "/sales/create/", { body: { session_token: validated.body.checkout_data.session_token } });
  await sandboxAction(created.body.payment, "pay");
  const captured = await capture(api, created.body.payment);
  expect(captured.body.status).toBe("paid");
  return captured.body;
}

async function subscription(email: string) {
  const [row] = await query<{ consented_at: Date; consent_source: string; unsubscribed_at: Date | null }>(
    api.db,
    sql`SELECT consented_at, consent_source, unsubscribed_at FROM mail_subscriptions WHERE email = ${email}`,
  );
  return row;
}

const unsubscribeUrl = (email: string, sig: string) => `/customer/unsubscribe/?${new URLSearchParams({ email, sig })}`;
const unsubscribeToken = (email: string, secret = NEW_SECRET) => sealLink([secret], "unsubscribe", { email });
const oneClick = (key: Record<string, string>, body: string, type = "application/x-www-form-urlencoded") =>
  fetch(`${api.url}/customer/unsubscribe/one-click/?${new URLSearchParams(key)}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
const mailLink = (purpose: string, key: Record<string, string>) =>
  call(api, `/customer/mail-link/?${new URLSearchParams({ purpose, ...key })}`);

beforeAll(async () => {
  // Rotated secrets: links signed with the old one must keep working.
  api = await startTestApi({ env: { SESSION_SECRET: `${NEW_SECRET},${OLD_SECRET}` } });
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

describe("marketing consent and /customer/unsubscribe/", () => {
  it("records consent with its date and source only when ticked", async () => {
    const option = await makeOption(api, { available: 50 });
    const yes = newEmail("acepta");
    const no = newEmail("no-acepta");
    const paid = await purchase(option, yes, true);
    await purchase(option, no, false);
    const row = await subscription(yes);
    expect(row.consent_source).toBe(`checkout:${paid.sale_id}`);
    expect(Math.abs(new Date(row.consented_at).getTime() - Date.now())).toBeLessThan(60_000);
    expect(row.unsubscribed_at).toBeNull();
    expect(await subscription(no)).toBeUndefined();
  });

  it("unsubscribes with a valid sig (old or new secret), twice is fine, and a new consent is the only way back", async () => {
    const option = await makeOption(api, { available: 50 });
    const email = newEmail("baja");
    await purchase(option, email, true);
    const oldSig = unsubscribeSignature([OLD_SECRET], email);
    const first = await call(api, unsubscribeUrl(email, oldSig));
    expect(first.status).toBe(200);
    expectSpanish(first.body.detail);
    const at = (await subscription(email)).unsubscribed_at;
    expect(at).not.toBeNull();
    const again = await call(api, unsubscribeUrl(email.toUpperCase(), unsubscribeSignature([NEW_SECRET], email)));
    expect(again.status).toBe(200);
    expect((await subscription(email)).unsubscribed_at).toEqual(at);

    await purchase(option, email, false);
    expect((await subscription(email)).unsubscribed_at).not.toBeNull();
    await purchase(option, email, true);
    expect((await subscription(email)).unsubscribed_at).toBeNull();
  });

  it("refuses a wrong, foreign or missing sig with a Spanish 400 and changes nothing", async () => {
    const option = await makeOption(api, { available: 50 });
    const email = newEmail("firma");
    await purchase(option, email, true);
    for (const path of [
      unsubscribeUrl(email, unsubscribeSignature(["otro-secreto-que-no-es-nuestro-000"], email)),
      unsubscribeUrl(email, unsubscribeSignature([NEW_SECRET], "otra@correo.es")),
      unsubscribeUrl(email, "x"),
      `/customer/unsubscribe/?email=${encodeURIComponent(email)}`,
      "/customer/unsubscribe/",
    ]) {
      const answer = await call(api, path);
      expect(answer.status, path).toBe(400);
      expectSpanish(answer.body.detail);
    }
    expect((await subscription(email)).unsubscribed_at).toBeNull();
  });

  it("unsubscribes with a link token (old or new secret); a token of another purpose or address does nothing", async () => {
    const option = await makeOption(api, { available: 50 });
    const email = newEmail("baja-token");
    const other = newEmail("baja-otro");
    await purchase(option, email, true);
    await purchase(option, other, true);
    for (const t of [
      sealLink([NEW_SECRET], "feedback", { email, offer: option.offerId }),
      sealLink([NEW_SECRET], "activation", { email }),
      unsubscribeToken(email, "otro-secreto-que-no-es-nuestro-000"),
      unsubscribeToken(email).slice(0, -2),
      "",
    ]) {
      const answer = await call(api, `/customer/unsubscribe/?${new URLSearchParams({ t })}`);
      expect(answer.status).toBe(400);
      expectSpanish(answer.body.detail);
    }
    expect((await subscription(email)).unsubscribed_at).toBeNull();
    // Reading the link tells its address and acts on nothing.
    const read = await mailLink("unsubscribe", { t: unsubscribeToken(email, OLD_SECRET) });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ purpose: "unsubscribe", email, offer_uuid: null });
    expect(read.headers.get("cache-control")).toContain("no-store");
    expect((await subscription(email)).unsubscribed_at).toBeNull();
    const done = await call(api, `/customer/unsubscribe/?${new URLSearchParams({ t: unsubscribeToken(email, OLD_SECRET) })}`);
    expect(done.status).toBe(200);
    expect(done.body.email).toBe(email);
    expect((await subscription(email)).unsubscribed_at).not.toBeNull();
    expect((await subscription(other)).unsubscribed_at).toBeNull();
  });

  it("an old link's email and sig read as a fresh token; a link is read only for its purpose", async () => {
    const email = newEmail("enlace-viejo");
    const old = await mailLink("unsubscribe", { email: email.toUpperCase(), sig: unsubscribeSignature([OLD_SECRET], email) });
    expect(old.status).toBe(200);
    expect(old.body.email).toBe(email);
    expect(openLink([NEW_SECRET], "unsubscribe", old.body.t)).toEqual({ email });
    expect((await mailLink("unsubscribe", { email, sig: "mala" })).status).toBe(400);
    const activation = sealLink([NEW_SECRET], "activation", { email });
    expect((await mailLink("activation", { t: activation })).body).toMatchObject({ purpose: "activation", email });
    expect((await mailLink("password-reset", { t: activation })).status).toBe(400);
    expect((await mailLink("unsubscribe", { t: activation })).status).toBe(400);
    // The old form is for unsubscribe links only.
    expect((await mailLink("activation", { email, sig: unsubscribeSignature([NEW_SECRET], email) })).status).toBe(400);
    const feedback = await mailLink("feedback", {
      t: sealLink([OLD_SECRET], "feedback", { email, offer: "6F1C2D1E-8A8B-4C1A-9D3E-1A2B3C4D5E6F" }),
    });
    expect(feedback.body).toMatchObject({ email, offer_uuid: "6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f" });
    const unknown = await mailLink("login", { t: activation });
    expect(unknown.status).toBe(400);
    expectSpanish(unknown.body.detail);
  });

  it("RFC 8058 one-click: POST List-Unsubscribe=One-Click with no cookie answers 200 and unsubscribes", async () => {
    const option = await makeOption(api, { available: 50 });
    const a = newEmail("one-click");
    const b = newEmail("one-click-multipart");
    await purchase(option, a, true);
    await purchase(option, b, true);
    const response = await oneClick({ t: unsubscribeToken(a) }, "List-Unsubscribe=One-Click");
    expect(response.status).toBe(200);
    expect((await subscription(a)).unsubscribed_at).not.toBeNull();

    const boundary = "----limite";
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const wrongBody = await oneClick({ t: unsubscribeToken(b) }, "algo=distinto");
    expect(wrongBody.status).toBe(400);
    expect((await subscription(b)).unsubscribed_at).toBeNull();
    expect((await oneClick({ t: "token-malo" }, "List-Unsubscribe=One-Click")).status).toBe(400);
    expect((await oneClick({ email: b, sig: "firma-mala" }, "List-Unsubscribe=One-Click")).status).toBe(400);
    expect((await subscription(b)).unsubscribed_at).toBeNull();
    // The header of a digest sent before link tokens (email and sig) still works.
    const old = { email: b, sig: unsubscribeSignature([OLD_SECRET], b) };
    expect((await oneClick(old, multipart, `multipart/form-data; boundary=${boundary}`)).status).toBe(200);
    expect((await subscription(b)).unsubscribed_at).not.toBeNull();

    // A person who opens the header's URL in a browser is asked first, on /unsubscribe.
    const t = unsubscribeToken(a);
    const opened = await fetch(`${api.url}/customer/unsubscribe/one-click/?${new URLSearchParams({ t })}`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/unsubscribe?${new URLSearchParams({ t })}`);
  });
});

describe("the marketing digest", () => {
  it("goes to subscribers only, with the RFC 8058 headers, and never again after the one-click", async () => {
    await api.db.execute(sql`UPDATE mail_subscriptions SET unsubscribed_at = now() WHERE unsubscribed_at IS NULL`);
    const option = await makeOption(api, { available: 50 });
    const stays = newEmail("boletin-sigue");
    const leaves = newEmail("boletin-se-va");
    const never = newEmail("boletin-nunca");
    for (const [email, consent] of [
      [stays, true],
      [leaves, true],
      [never, false],
    ] as const)
      await purchase(option, email, consent);

    const first = await queueDigestNow(api.db);
    expect(first.queued).toBe(2);
    await send();
    const mail = await smtp.waitFor(leaves, { subject: /Nuevas ofertas/ });
    await smtp.waitFor(stays, { subject: /Nuevas ofertas/ });
    expect(smtp.messages.some((m) => m.envelopeTo.includes(never) && /Nuevas ofertas/.test(m.subject ?? ""))).toBe(false);

    // The raw header lines, unfolded, exactly as a mail provider reads them.
    const headerLines = mail.raw
      .toString()
      .split(/\r?\n\r?\n/)[0]
      .replace(/\r?\n[ \t]+/g, " ");
    expect(headerLines).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const expected =
      /^List-Unsubscribe: <(https:\/\/ofertas\.example\/api\/v0\/customer\/unsubscribe\/one-click\/\?t=[A-Za-z0-9_-]+)>$/m.exec(
        headerLines,
      )?.[1];
    expect(expected).toBeDefined();
    const token = new URL(expected!).searchParams.get("t");
    expect(openLink([NEW_SECRET], "unsubscribe", token)).toEqual({ email: leaves });
    expect(mail.html).toContain(`https://ofertas.example/unsubscribe?t=${token}`);
    expectNoAddress(linksOf(mail), leaves);
    expect(mail.text).toContain(option.offerId ? "Darse de baja" : "");
    expect(mail.html).toContain("/ofertas/");
    // The offers' pictures, 96 px wide in the mail, are their 400 px renditions, not the 800 px ones.
    const pictures = [...String(mail.html).matchAll(/<img[^>]+src="([^"]+\/images\/demo\/[^"]+)"/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThan(0);
    for (const src of pictures) expect(src).toMatch(/\/images\/demo\/400\//);

    // The mail client's one-click, with the exact URL of the header.
    const url = new URL(expected!);
    const click = await fetch(`${api.origin}${url.pathname}${url.search}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(click.status).toBe(200);

    const before = smtp.messages.length;
    const second = await queueDigestNow(api.db);
    expect(second.queued).toBe(1);
    await send();
    await smtp.waitFor(stays, { subject: /Nuevas ofertas/ });
    const digestsTo = (email: string) =>
      smtp.messages.filter((m) => m.envelopeTo.includes(email) && /Nuevas ofertas/.test(m.subject ?? "")).length;
    expect(digestsTo(stays)).toBe(2);
    expect(digestsTo(leaves)).toBe(1);
    expect(smtp.messages.length).toBeGreaterThan(before);
  });

  it("is skipped when the address unsubscribes between queueing and sending", async () => {
    await api.db.execute(sql`UPDATE mail_subscriptions SET unsubscribed_at = now() WHERE unsubscribed_at IS NULL`);
    const email = newEmail("boletin-tarde");
    await purchase(await makeOption(api, { available: 50 }), email, true);
    await queueDigestNow(api.db);
    await call(api, `/customer/unsubscribe/?${new URLSearchParams({ t: unsubscribeToken(email) })}`);
    expect(await send()).toMatchObject({ skipped: 1 });
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(email) && /Nuevas ofertas/.test(m.subject ?? ""))).toHaveLength(0);
  });

  it("the schedule queues once per period, from 09:00 Spanish time", async () => {
    expect(digestPeriod("weekly", new Date("2026-11-18T12:00:00Z"))).toBe("weekly-2026-11-16");
    expect(digestPeriod("weekly", new Date("2026-11-16T07:59:00Z"))).toBeNull(); // 08:59 in Madrid
    expect(digestPeriod("daily", new Date("2026-11-18T12:00:00Z"))).toBe("daily-2026-11-18");
    expect(digestPeriod("off", new Date("2026-11-18T12:00:00Z"))).toBeNull();
    const at = new Date("2030-01-07T10:00:00Z");
    const runs = await Promise.all([runScheduledDigest(api.db, "weekly", at), runScheduledDigest(api.db, "weekly", at)]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await runScheduledDigest(api.db, "weekly", new Date("2030-01-09T10:00:00Z"))).toBeNull();
  });
});

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

describe("account mails", () => {
  it("activation and password-reset links name their address with a token of their own purpose", async () => {
    const email = newEmail("cuenta-enlace");
    const created = await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" } });
    expect(created.status).toBe(201);
    await send();
    const activation = await smtp.waitFor(email, { subject: /activar tu cuenta/ });
    const activate = new URL(linksOf(activation).find((l) => l.includes("/login/registro"))!);
    expect(Object.fromEntries(activate.searchParams)).toEqual({ paso: "activar", t: expect.any(String) });
    expect((await mailLink("activation", { t: activate.searchParams.get("t")! })).body.email).toBe(email);
    expect((await mailLink("password-reset", { t: activate.searchParams.get("t")! })).status).toBe(400);
    expectNoAddress(linksOf(activation), email);

    expect((await call(api, "/auth/users/reset_password/", { body: { email } })).status).toBeLessThan(300);
    await send();
    const reset = await smtp.waitFor(email, { subject: /cambiar la contraseña/ });
    const link = new URL(linksOf(reset).find((l) => l.includes("/login/recuperar"))!);
    expect(Object.fromEntries(link.searchParams)).toEqual({ paso: "codigo", t: expect.any(String) });
    expect((await mailLink("password-reset", { t: link.searchParams.get("t")! })).body.email).toBe(email);
    expectNoAddress(linksOf(reset), email);
  });
});
