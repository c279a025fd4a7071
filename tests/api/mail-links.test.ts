import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unsubscribeSignature } from "#lib/signatures.server";
import { query } from "#api/db/client";
import { digestPeriod, queueDigestNow, runScheduledDigest } from "#api/mail/digest";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { queueFeedbackAfterRedemption } from "#api/services/feedback";
import { seedDemoRatings } from "#api/db/seed-ratings";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { startTestSmtp, type TestSmtp } from "#tests/support/smtp";
import { capture, expectSpanish, makeOption, newEmail, orderBody, sandboxAction, type Option } from "./_helpers";

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
const oneClick = (email: string, sig: string, body: string, type = "application/x-www-form-urlencoded") =>
  fetch(`${api.url}/customer/unsubscribe/one-click/?${new URLSearchParams({ email, sig })}`, { method: "POST", headers: { "content-type": type }, body });

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

  it("RFC 8058 one-click: POST List-Unsubscribe=One-Click with no cookie answers 200 and unsubscribes", async () => {
    const option = await makeOption(api, { available: 50 });
    const a = newEmail("one-click");
    const b = newEmail("one-click-multipart");
    await purchase(option, a, true);
    await purchase(option, b, true);
    const response = await oneClick(a, unsubscribeSignature([NEW_SECRET], a), "List-Unsubscribe=One-Click");
    expect(response.status).toBe(200);
    expect((await subscription(a)).unsubscribed_at).not.toBeNull();

    const boundary = "----limite";
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const wrongBody = await oneClick(b, unsubscribeSignature([NEW_SECRET], b), "algo=distinto");
    expect(wrongBody.status).toBe(400);
    expect((await subscription(b)).unsubscribed_at).toBeNull();
    expect((await oneClick(b, "firma-mala", "List-Unsubscribe=One-Click")).status).toBe(400);
    expect((await subscription(b)).unsubscribed_at).toBeNull();
    expect((await oneClick(b, unsubscribeSignature([OLD_SECRET], b), multipart, `multipart/form-data; boundary=${boundary}`)).status).toBe(200);
    expect((await subscription(b)).unsubscribed_at).not.toBeNull();

    // A person who opens the header's URL in a browser is asked first, on /unsubscribe.
    const opened = await fetch(`${api.url}/customer/unsubscribe/one-click/?email=${encodeURIComponent(a)}&sig=s`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toMatch(/^\/unsubscribe\?email=/);
  });
});

describe("the marketing digest", () => {
  it("goes to subscribers only, with the RFC 8058 headers, and never again after the one-click", async () => {
    await api.db.execute(sql`UPDATE mail_subscriptions SET unsubscribed_at = now() WHERE unsubscribed_at IS NULL`);
    const option = await makeOption(api, { available: 50 });
    const stays = newEmail("boletin-sigue");
    const leaves = newEmail("boletin-se-va");
    const never = newEmail("boletin-nunca");
    for (const [email, consent] of [[stays, true], [leaves, true], [never, false]] as const) await purchase(option, email, consent);

    const first = await queueDigestNow(api.db);
    expect(first.queued).toBe(2);
    await send();
    const mail = await smtp.waitFor(leaves, { subject: /Nuevas ofertas/ });
    await smtp.waitFor(stays, { subject: /Nuevas ofertas/ });
    expect(smtp.messages.some((m) => m.envelopeTo.includes(never) && /Nuevas ofertas/.test(m.subject ?? ""))).toBe(false);

    const sig = unsubscribeSignature([NEW_SECRET], leaves);
    const expected = `https://ofertas.example/api/v0/customer/unsubscribe/one-click/?${new URLSearchParams({ email: leaves, sig })}`;
    // The raw header lines, unfolded, exactly as a mail provider reads them.
    const headerLines = mail.raw.toString().split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
    expect(headerLines).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(/^List-Unsubscribe: (.*)$/m.exec(headerLines)?.[1]).toBe(`<${expected}>`);
    expect(mail.html).toContain(`https://ofertas.example/unsubscribe?email=${encodeURIComponent(leaves)}`);
    expect(mail.text).toContain(option.offerId ? "Darse de baja" : "");
    expect(mail.html).toContain("/ofertas/");
    // The offers' pictures, 96 px wide in the mail, are their 400 px renditions, not the 800 px ones.
    const pictures = [...String(mail.html).matchAll(/<img[^>]+src="([^"]+\/images\/demo\/[^"]+)"/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThan(0);
    for (const src of pictures) expect(src).toMatch(/\/images\/demo\/400\//);

    // The mail client's one-click, with the exact URL of the header.
    const url = new URL(expected);
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
    const digestsTo = (email: string) => smtp.messages.filter((m) => m.envelopeTo.includes(email) && /Nuevas ofertas/.test(m.subject ?? "")).length;
    expect(digestsTo(stays)).toBe(2);
    expect(digestsTo(leaves)).toBe(1);
    expect(smtp.messages.length).toBeGreaterThan(before);
  });

  it("is skipped when the address unsubscribes between queueing and sending", async () => {
    await api.db.execute(sql`UPDATE mail_subscriptions SET unsubscribed_at = now() WHERE unsubscribed_at IS NULL`);
    const email = newEmail("boletin-tarde");
    await purchase(await makeOption(api, { available: 50 }), email, true);
    await queueDigestNow(api.db);
    await call(api, unsubscribeUrl(email, unsubscribeSignature([NEW_SECRET], email)));
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
  const post = (body: Record<string, unknown>) => call(api, "/public/offers/feedback/", { body });

  it("counts only buyers; one rating per email and offer, a later one replaces the stars", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("valora");
    expect((await post({ feedback_stars: 5, offer_uuid: option.offerId, user_email: buyer })).status).toBe(403);
    await purchase(option, buyer);
    const first = await post({ feedback_stars: 2, offer_uuid: option.offerId, user_email: buyer.toUpperCase() });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ feedback_stars: 2, offer_uuid: option.offerId, user_email: buyer });
    // A mail scanner opening every star link: one rating, the last.
    for (const stars of [1, 2, 3, 4, 5, 4]) await post({ feedback_stars: stars, offer_uuid: option.offerId, user_email: buyer });
    const [row] = await query<{ n: number; stars: number }>(
      api.db,
      sql`SELECT count(*)::int AS n, max(stars) AS stars FROM offer_feedback WHERE email = ${buyer}`,
    );
    expect(row).toEqual({ n: 1, stars: 4 });
    expect((await post({ feedback_stars: 3, offer_uuid: option.offerId, user_email: buyer })).body.id).toBe(first.body.id);
  });

  it("checks its bounds with Spanish messages", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("limites");
    await purchase(option, buyer);
    for (const bad of [0, 6, 2.5, "muchas", null]) {
      const answer = await post({ feedback_stars: bad, offer_uuid: option.offerId, user_email: buyer });
      expect(answer.status, String(bad)).toBe(400);
      expectSpanish(answer.body.detail);
    }
    expect((await post({ feedback_stars: 4, offer_uuid: "no-es-uuid", user_email: buyer })).status).toBe(400);
    expect((await post({ feedback_stars: 4, offer_uuid: option.offerId, user_email: "no-es-correo" })).status).toBe(400);
    expect((await post({ feedback_stars: 4, offer_uuid: "6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f", user_email: buyer })).status).toBe(404);
  });

  it("PATCH changes what it is given, PUT replaces; unknown ids are 404", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("cambia");
    await purchase(option, buyer);
    const { body } = await post({ feedback_stars: 3, offer_uuid: option.offerId, user_email: buyer });
    const patched = await call(api, `/public/offers/feedback/${body.id}/`, { method: "PATCH", body: { comment: "Muy buena atención." } });
    expect(patched.body).toMatchObject({ feedback_stars: 3, comment: "Muy buena atención." });
    // A later star link keeps the comment.
    expect((await post({ feedback_stars: 5, offer_uuid: option.offerId, user_email: buyer })).body).toMatchObject({ feedback_stars: 5, comment: "Muy buena atención." });
    expect((await call(api, `/public/offers/feedback/${body.id}/`, { method: "PUT", body: { comment: "sin estrellas" } })).status).toBe(400);
    const put = await call(api, `/public/offers/feedback/${body.id}/`, { method: "PUT", body: { feedback_stars: 4 } });
    expect(put.body).toMatchObject({ feedback_stars: 4, comment: "" });
    expect((await call(api, `/public/offers/feedback/${body.id}/`, { method: "PATCH", body: { feedback_stars: 9 } })).status).toBe(400);
    expect((await call(api, `/public/offers/feedback/6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f/`, { method: "PATCH", body: { comment: "x" } })).status).toBe(404);
    expect((await call(api, `/public/offers/feedback/nada/`, { method: "PATCH", body: { comment: "x" } })).status).toBe(404);
  });

  it("the offer shows its average and count once three buyers have rated", async () => {
    const option = await makeOption(api, { available: 50, offerId: (await query<{ id: string }>(api.db, sql`SELECT id FROM offers WHERE status = 'active' ORDER BY rank DESC, id LIMIT 1`))[0].id });
    const rating = async () => (await call(api, `/public/offers/${option.offerId}/`)).body.rating;
    const buyers = [newEmail("r1"), newEmail("r2"), newEmail("r3")];
    const before = await rating();
    for (const [i, buyer] of buyers.entries()) {
      await purchase(option, buyer);
      await post({ feedback_stars: [5, 4, 4][i], offer_uuid: option.offerId, user_email: buyer });
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
  it("is queued by the purchase, brought forward by a redemption, and carries five star links", async () => {
    const option = await makeOption(api, { available: 50 });
    const buyer = newEmail("solicitud");
    const paid = await purchase(option, buyer);
    const key = `feedback:${option.offerId}:${buyer}`;
    const due = async () => new Date((await query<{ send_after: string }>(api.db, sql`SELECT send_after FROM mail_outbox WHERE dedupe_key = ${key}`))[0].send_after).getTime();
    expect(await due()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    await api.db.transaction((tx) => queueFeedbackAfterRedemption(tx, { couponCode: paid.items[0].coupons[0], delayHours: 0 }));
    expect(await due()).toBeLessThanOrEqual(Date.now() + 1000);
    await send();
    const mail = await smtp.waitFor(buyer, { subject: /Valóralo/ });
    const links = [...(mail.html as string).matchAll(/href="(https:\/\/ofertas\.example\/feedback\?[^"]+)"/g)].map((m) => new URL(m[1].replace(/&amp;/g, "&")));
    expect(links.map((l) => l.searchParams.get("rate"))).toEqual(["1", "2", "3", "4", "5"]);
    for (const l of links) expect(Object.fromEntries(l.searchParams)).toMatchObject({ offer: option.offerId, email: buyer });
    expect(mail.headers.has("list-unsubscribe")).toBe(false);
  });
});
