/**
 * Reminders of unused coupons (api/services/reminders/, api/mail/templates/reminders.tsx): «Tu cupón
 * caduca en N días» and «Recuerda reservar», once each per coupon and N, never for a coupon that
 * cannot be used, each kind stopped by its own link. Read as a mail program would: the .eml files
 * the shop writes without SMTP_URL.
 */
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, madridDate } from "#rules/dates";
import { openDatabase, query } from "#api/db/client";
import { createMailTransport } from "#api/mail/transport";
import { messages } from "#api/mail/messages";
import { deliverDue } from "#api/mail/worker";
import { runReminderPass } from "#api/services/reminders/pass";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, expectNoAddress, makeOption, newEmail, type Option } from "./_helpers";

let api: TestApi;
let mailDir = "";
const today = () => madridDate(new Date());

beforeAll(async () => {
  api = await startTestApi();
  mailDir = await mkdtemp(path.join(os.tmpdir(), "ofertas-reminders-"));
});
afterAll(async () => {
  await api.close();
  await rm(mailDir, { recursive: true, force: true });
});

let offerSeq = 0;
/** An offer of its own (its dates are the test's to move), with a phone, and one price option. */
async function offerWith({ validUntil, conditions = "" }: { validUntil: string | null; conditions?: string }): Promise<Option> {
  const n = ++offerSeq;
  const [org] = await query<{ id: string }>(
    api.db,
    sql`INSERT INTO organizations (name, email, phone, address)
        VALUES (${`Spa Recordatorio ${n}`}, ${`reservas${n}@spa.example`}, '+34 911 22 33 44', 'Calle Mayor 1, Madrid')
        RETURNING id`,
  );
  const [offer] = await query<{ id: string }>(
    api.db,
    sql`INSERT INTO offers (organization_id, title, summary, conditions, category, province, address, valid_until, status)
        VALUES (${org.id}, ${`Circuito termal para dos ${n}`}, 'Dos horas de spa', ${conditions}, 'health_and_beauty', 'Madrid',
                'Calle Mayor 1, Madrid', ${validUntil}::date, 'active')
        RETURNING id`,
  );
  return makeOption(api, { available: 50, offerId: offer.id });
}

/** A paid purchase of `quantity` coupons, paid `daysAgo` days ago; its sale and coupon codes. */
async function bought(option: Option, { quantity = 1, daysAgo = 40, email = newEmail("recordatorio") } = {}) {
  const { purchase } = await buy(api, [{ option, quantity }], email);
  await api.db.execute(sql`UPDATE sales SET paid_at = now() - ${daysAgo} * interval '1 day' WHERE id = ${purchase.sale_id}`);
  const codes: string[] = purchase.items.flatMap((i: { coupons: string[] }) => i.coupons);
  return { email, saleId: purchase.sale_id as string, codes };
}

const setValidUntil = (option: Option, date: string | null) =>
  api.db.execute(sql`UPDATE offers SET valid_until = ${date}::date WHERE id = ${option.offerId}`);

/**
 * Sends the reminders that are due into .eml files, then every reminder this address has in them,
 * oldest first. The purchase mails are set aside unsent: each carries a PDF of its coupons, and
 * rendering them all on every call made this file slow without telling it anything. The templates
 * are imported with the file (the worker imports them on its first mail), so that their loading
 * is not charged to whichever test sends first.
 */
async function remindersTo(email: string): Promise<ParsedMail[]> {
  await api.db.execute(
    sql`UPDATE mail_outbox SET status = 'skipped' WHERE status = 'queued' AND kind NOT IN ('expiry-reminder', 'booking-reminder')`,
  );
  const config = { ...api.config, SMTP_URL: undefined, dataDir: mailDir };
  await deliverDue(api.db, { transport: createMailTransport(config, () => {}), config, messages, log: () => {}, batch: 500 });
  const files = (await readdir(path.join(mailDir, "mail")).catch(() => [] as string[])).filter((f) => f.endsWith(".eml"));
  // Oldest first by the file's write time: the Date header has whole seconds, and two mails sent
  // within one second would otherwise come back in the order of their random names.
  const mails = await Promise.all(
    files.map(async (f) => {
      const file = path.join(mailDir, "mail", f);
      return { at: (await stat(file)).mtimeMs, mail: await simpleParser(await readFile(file)) };
    }),
  );
  return mails
    .sort((a, b) => a.at - b.at)
    .map((m) => m.mail)
    .filter((m) => m.text?.includes("cupón sin usar") && (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === email));
}

const pass = (now = new Date()) => runReminderPass(api.db, now);
/** A header as written in the file (mailparser turns List-* headers into objects). */
const rawHeader = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.replace(/^[^:]+:\s*/, "")
    .replace(/\r?\n\s+/g, " ");
/** The plain-text part with its line wrapping undone. */
const unwrapped = (mail: ParsedMail) => (mail.text ?? "").replace(/\s+/g, " ");

describe("«Tu cupón caduca en N días»", () => {
  it("comes at 30 and then at 7 days, once each, with every code, the merchant and a stop link", async () => {
    const option = await offerWith({ validUntil: addDays(today(), 30) });
    const { email, codes } = await bought(option, { quantity: 2 });
    expect((await pass()).found).toBeGreaterThanOrEqual(2);
    await pass();
    let mails = await remindersTo(email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Tus 2 cupones caducan en 30 días: Circuito termal/)]);
    const [first] = mails;
    for (const code of codes) expect(first.text).toContain(code);
    expect(first.text).toContain("+34 911 22 33 44");
    expect(first.html).toContain('href="tel:+34911223344"');
    expect(first.html).toMatch(/\/avisos\/caducidad\?t=[\w-]+/);
    expect(first.html).toMatch(/\/order\/coupons\?sale=[0-9a-f-]{36}&amp;sig=/);
    expect(rawHeader(first, "List-Unsubscribe")).toMatch(/\/api\/v0\/customer\/reminders\/stop\/one-click\/\?kind=expiry&t=/);
    expect(rawHeader(first, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const links = [...(first.html as string).matchAll(/href="(http[^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
    expectNoAddress(links, email);

    // 23 days later (the offer's end moved to a week from now): the 7-day reminder, once.
    await setValidUntil(option, addDays(today(), 7));
    await pass();
    await pass();
    mails = await remindersTo(email);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Tus 2 cupones caducan en 30 días/),
      expect.stringMatching(/^Tus 2 cupones caducan en 7 días/),
    ]);
  });

  it("never comes for a redeemed coupon; a coupon redeemed after it was queued is skipped", async () => {
    const option = await offerWith({ validUntil: addDays(today(), 7) });
    const redeemed = await bought(option);
    await api.db.execute(sql`UPDATE coupons SET redeemed_at = now() WHERE code = ${redeemed.codes[0]}`);
    const later = await bought(option);
    await pass();
    await api.db.execute(sql`UPDATE coupons SET redeemed_at = now() WHERE code = ${later.codes[0]}`);
    expect(await remindersTo(redeemed.email)).toEqual([]);
    expect(await remindersTo(later.email)).toEqual([]);
    const [row] = await query<{ status: string }>(
      api.db,
      sql`SELECT o.status FROM mail_outbox o WHERE o.recipient = ${later.email} AND o.kind = 'expiry-reminder'`,
    );
    expect(row.status).toBe("skipped");
  });

  it("never comes for a refunded purchase, an expired coupon, or one bought after its day", async () => {
    const soon = await offerWith({ validUntil: addDays(today(), 7) });
    const refunded = await bought(soon);
    await api.db.execute(sql`UPDATE sales SET status = 'refund_required' WHERE id = ${refunded.saleId}`);
    const expired = await offerWith({ validUntil: addDays(today(), 7) });
    const old = await bought(expired);
    await setValidUntil(expired, addDays(today(), -1));
    // Paid 3 days ago with 25 days left: the purchase mail just said so; the 7-day one comes later.
    const month = await offerWith({ validUntil: addDays(today(), 25) });
    const fresh = await bought(month, { daysAgo: 3 });
    await pass();
    expect(await remindersTo(refunded.email)).toEqual([]);
    expect(await remindersTo(old.email)).toEqual([]);
    expect(await remindersTo(fresh.email)).toEqual([]);
    await setValidUntil(month, addDays(today(), 6));
    await pass();
    expect((await remindersTo(fresh.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Tu cupón caduca en 6 días/)]);
  });
});

describe("«Recuerda reservar»", () => {
  it("comes once, days after paying, when the conditions ask for a booking, with the merchant's phone", async () => {
    const booking = await offerWith({
      validUntil: addDays(today(), 90),
      conditions: "Válido de lunes a jueves\nReserva previa por teléfono o correo electrónico\nNo acumulable",
    });
    const plain = await offerWith({ validUntil: addDays(today(), 90), conditions: "Reserva recomendada los fines de semana" });
    const email = newEmail("reserva");
    const a = await bought(booking, { daysAgo: 3, email });
    const b = await bought(plain, { daysAgo: 3, email });
    const justPaid = await bought(booking, { daysAgo: 0 });
    await pass();
    await pass();
    const mails = await remindersTo(email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Recuerda reservar: Circuito termal/)]);
    expect(unwrapped(mails[0])).toContain("Reserva previa por teléfono o correo electrónico");
    expect(mails[0].text).toContain(a.codes[0]);
    expect(mails[0].text).not.toContain(b.codes[0]);
    expect(mails[0].html).toContain('href="tel:+34911223344"');
    expect(mails[0].html).toMatch(/\/avisos\/reserva\?t=/);
    expect(await remindersTo(justPaid.email)).toEqual([]);
  });
});

describe("stop links", () => {
  const tokenOf = (mail: ParsedMail, slug: string) =>
    new URL(
      new RegExp(`href="(http[^"]+/avisos/${slug}\\?t=[^"]+)"`).exec(mail.html as string)![1].replace(/&amp;/g, "&"),
    ).searchParams.get("t")!;

  it("stop that kind for that buyer only, by the page's button or one-click; a token opens for its kind only", async () => {
    const option = await offerWith({ validUntil: addDays(today(), 90), conditions: "Reserva previa imprescindible" });
    const { email } = await bought(option, { daysAgo: 3 });
    const other = await bought(option, { daysAgo: 3 });
    // Paid 3 days ago, 90 days left: the booking reminder now, no expiry reminder yet.
    await pass();
    const [booking] = await remindersTo(email);
    expect(booking.subject).toMatch(/^Recuerda reservar/);
    const t = tokenOf(booking, "reserva");

    expect((await call(api, "/customer/reminders/stop/", { body: { kind: "expiry", t } })).status).toBe(400);
    expect((await call(api, "/customer/reminders/stop/", { body: { kind: "booking", t: "x" + t } })).status).toBe(400);
    expect((await call(api, "/customer/reminders/stop/", { body: { kind: "nada", t } })).status).toBe(400);
    const stopped = await call(api, "/customer/reminders/stop/", { body: { kind: "booking", t } });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ kind: "booking", email });

    // The other buyer by one-click, with the header's URL (a mail provider's POST, no cookie).
    const [otherBooking] = await remindersTo(other.email);
    const oneClick = new URL(/<([^>]+)>/.exec(rawHeader(otherBooking, "List-Unsubscribe")!)![1]);
    expect(oneClick.searchParams.get("kind")).toBe("booking");
    const response = await fetch(`${api.url}/customer/reminders/stop/one-click/${oneClick.search}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);

    // A week before the end: the expiry reminder still comes to both; no booking reminder is pending.
    await setValidUntil(option, addDays(today(), 7));
    await pass();
    expect((await remindersTo(email)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Recuerda reservar/),
      expect.stringMatching(/^Tu cupón caduca en 7 días/),
    ]);
    const stops = await query<{ email: string; kind: string }>(
      api.db,
      sql`SELECT email, kind FROM reminder_stops WHERE email IN (${email}, ${other.email}) ORDER BY email`,
    );
    expect(stops).toHaveLength(2);
    expect(stops.every((s) => s.kind === "booking")).toBe(true);
    expect((await remindersTo(other.email)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Recuerda reservar/),
      expect.stringMatching(/^Tu cupón caduca en 7 días/),
    ]);

    // Stopping expiry too: the next expiry reminder for this buyer is skipped, not sent.
    const expiry = (await remindersTo(email))[1];
    await call(api, "/customer/reminders/stop/", { body: { kind: "expiry", t: tokenOf(expiry, "caducidad") } });
    const second = await bought(option, { daysAgo: 30, email });
    await pass();
    expect(await remindersTo(email)).toHaveLength(2);
    const [row] = await query<{ status: string }>(
      api.db,
      sql`SELECT r.status FROM coupon_reminders r JOIN coupons c ON c.id = r.coupon_id WHERE c.code = ${second.codes[0]}`,
    );
    expect(row.status).toBe("skipped");
  });
});

describe("several processes", () => {
  it("two passes at once queue each reminder once", async () => {
    const option = await offerWith({ validUntil: addDays(today(), 7) });
    const buyers = await Promise.all([1, 2, 3, 4].map(() => bought(option, { quantity: 2 })));
    // On PostgreSQL, two pools as two servers would have; PGlite serialises the same calls.
    const others = api.databaseUrl
      ? await Promise.all([openDatabase({ databaseUrl: api.databaseUrl }), openDatabase({ databaseUrl: api.databaseUrl })])
      : null;
    try {
      const dbs = others ? others.map((o) => o.db) : [api.db, api.db];
      const results = await Promise.all(dbs.map((db) => runReminderPass(db, new Date())));
      expect(results.reduce((n, r) => n + r.mails, 0)).toBe(4);
    } finally {
      await Promise.all((others ?? []).map((o) => o.close()));
    }
    for (const b of buyers) expect(await remindersTo(b.email)).toHaveLength(1);
  });
});
