/**
 * Marketing mail and the way out of it: consent ticked at checkout, the unsubscribe links (old and
 * new forms, RFC 8058 one-click), the digest that honours them, and account mails' own links.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openLink, sealLink, unsubscribeSignature } from "#platform/signatures.server";
import { query } from "#api/db/client";
import { digestPeriod, queueDigestNow, runScheduledDigest } from "#api/mail/digest";
import { call } from "#tests/support/api-server";
import { linksOf } from "#tests/support/smtp";
import { api } from "./_file-api";
import { expectNoAddress, expectSpanish, makeOption, newEmail } from "./_helpers";
import { NEW_SECRET, OLD_SECRET, purchase, send, smtp, unsubscribeToken, withMailApi } from "./_mail-links";

withMailApi();

async function subscription(email: string) {
  const [row] = await query<{ consented_at: Date; consent_source: string; unsubscribed_at: Date | null }>(
    api.db,
    sql`SELECT consented_at, consent_source, unsubscribed_at FROM mail_subscriptions WHERE email = ${email}`,
  );
  return row;
}

const unsubscribeUrl = (email: string, sig: string) => `/customer/unsubscribe/?${new URLSearchParams({ email, sig })}`;

const oneClick = (key: Record<string, string>, body: string, type = "application/x-www-form-urlencoded") =>
  fetch(`${api.url}/customer/unsubscribe/one-click/?${new URLSearchParams(key)}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
const mailLink = (purpose: string, key: Record<string, string>) =>
  call(api, `/customer/mail-link/?${new URLSearchParams({ purpose, ...key })}`);

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
