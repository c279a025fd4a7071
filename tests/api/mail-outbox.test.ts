import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";
import { openDatabase, query } from "#api/db/client";
import type { MessageRenderer } from "#api/mail/messages";
import { queueMail } from "#api/mail/outbox";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue, startMailWorker } from "#api/mail/worker";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { startTestSmtp, type TestSmtp } from "#tests/support/smtp";

let api: TestApi;
let smtp: TestSmtp;
let seq = 0;
const address = (tag: string) => `${tag}.${++seq}.${process.pid}@correo.es`;

// A message of our own, so the outbox is tested apart from the product's templates.
const testMessages: Record<string, MessageRenderer> = {
  "test-note": async (data, ctx) => ({
    subject: `Nota ${String(data.n)} — ñandú`,
    html: `<p>Hola <b>${ctx.to}</b>, nota ${String(data.n)}</p>`,
    text: `Hola ${ctx.to}, nota ${String(data.n)}`,
    attachments: [{ filename: "nota.txt", content: Buffer.from(`contenido ${String(data.n)}`), contentType: "text/plain" }],
    headers: { "X-Ofertas-Prueba": "nota-de-prueba" },
  }),
  "test-gone": async () => null,
};

const smtpConfig = () => ({ ...api.config, SMTP_URL: smtp.url });
const deliver = (overrides: Partial<Parameters<typeof deliverDue>[1]> = {}) =>
  deliverDue(api.db, {
    transport: createMailTransport(smtpConfig()),
    config: smtpConfig(),
    messages: testMessages,
    backoff: () => 0,
    log: () => {},
    ...overrides,
  });

async function row(dedupeKey: string) {
  const [r] = await query<{ status: string; attempts: number; last_error: string | null; message_id: string | null }>(
    api.db,
    sql`SELECT status, attempts, last_error, message_id FROM mail_outbox WHERE dedupe_key = ${dedupeKey}`,
  );
  return r;
}

beforeAll(async () => {
  api = await startTestApi({ seed: false });
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

describe("outbox and worker against a real SMTP server", () => {
  it("sends recipient, subject, HTML, text, attachments and headers", async () => {
    const to = address("nota");
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `note:${to}`, data: { n: 1 } });
    expect(await deliver()).toMatchObject({ sent: 1 });
    const mail = await smtp.waitFor(to);
    expect(mail.envelopeTo).toEqual([to]);
    expect(mail.subject).toBe("Nota 1 — ñandú");
    expect(mail.html).toContain(`<b>${to}</b>`);
    expect(mail.text?.trim()).toBe(`Hola ${to}, nota 1`);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: "nota.txt", contentType: "text/plain" });
    expect(mail.attachments[0].content.toString()).toBe("contenido 1");
    expect(mail.headers.get("x-ofertas-prueba")).toBe("nota-de-prueba");
    expect(mail.from?.value[0].address).toBe("no-responder@ofertas.es");
    const r = await row(`note:${to}`);
    expect(r.status).toBe("sent");
    expect(mail.messageId).toBe(r.message_id);
  });

  it("queues a cause once, and only if its transaction commits", async () => {
    const to = address("una-vez");
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `once:${to}`, data: { n: 2 } });
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `once:${to}`, data: { n: 3 } });
    const rolledBack = address("rollback");
    await expect(
      api.db.transaction(async (tx) => {
        await queueMail(tx, { kind: "test-note", to: rolledBack, dedupeKey: `rb:${rolledBack}`, data: { n: 4 } });
        throw new Error("la causa falla");
      }),
    ).rejects.toThrow("la causa falla");
    await deliver();
    await smtp.waitFor(to);
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
    expect(smtp.messages.find((m) => m.envelopeTo.includes(to))?.subject).toBe("Nota 2 — ñandú");
    expect(await row(`rb:${rolledBack}`)).toBeUndefined();
  });

  it("waits for sendAfter", async () => {
    const to = address("luego");
    await queueMail(api.db, {
      kind: "test-note",
      to,
      dedupeKey: `later:${to}`,
      data: { n: 5 },
      sendAfter: new Date(Date.now() + 3600_000),
    });
    await deliver();
    expect((await row(`later:${to}`)).status).toBe("queued");
    await api.db.execute(sql`UPDATE mail_outbox SET send_after = now() - interval '1 second' WHERE dedupe_key = ${`later:${to}`}`);
    await deliver();
    expect((await row(`later:${to}`)).status).toBe("sent");
  });

  it("retries after a temporary SMTP failure and sends once", async () => {
    const to = address("reintento");
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `retry:${to}`, data: { n: 6 } });
    smtp.failNext(1);
    const delays: number[] = [];
    expect(await deliver({ backoff: (attempt) => (delays.push(attempt), 0) })).toMatchObject({ sent: 0, retrying: 1 });
    const failed = await row(`retry:${to}`);
    expect(failed).toMatchObject({ status: "queued", attempts: 1 });
    expect(failed.last_error).toMatch(/451/);
    expect(delays).toEqual([1]);
    expect(await deliver()).toMatchObject({ sent: 1 });
    expect(await row(`retry:${to}`)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    await smtp.waitFor(to);
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
  });

  it("records the final failure after the last attempt, and a permanent one at once", async () => {
    const to = address("caido");
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `down:${to}`, data: { n: 7 } });
    // Nothing listens on port 1: connection refused, a temporary failure.
    const down = { ...api.config, SMTP_URL: "smtp://127.0.0.1:1" };
    const opts = { transport: createMailTransport(down), config: down, maxAttempts: 2 };
    expect(await deliver(opts)).toMatchObject({ retrying: 1 });
    expect(await deliver(opts)).toMatchObject({ failed: 1 });
    const r = await row(`down:${to}`);
    expect(r.status).toBe("failed");
    expect(r.attempts).toBe(2);
    expect(r.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(await deliver(opts)).toMatchObject({ sent: 0, failed: 0, retrying: 0 });

    const unknown = address("desconocido");
    await queueMail(api.db, { kind: "no-existe", to: unknown, dedupeKey: `unknown:${unknown}`, data: {} });
    expect(await deliver()).toMatchObject({ failed: 1 });
    expect(await row(`unknown:${unknown}`)).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: "Tipo de correo desconocido: no-existe",
    });
  });

  it("skips a message its template says no longer applies", async () => {
    const to = address("ya-no");
    await queueMail(api.db, { kind: "test-gone", to, dedupeKey: `gone:${to}`, data: {} });
    expect(await deliver()).toMatchObject({ skipped: 1, sent: 0 });
    expect((await row(`gone:${to}`)).status).toBe("skipped");
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(to))).toHaveLength(0);
  });

  it("never resends a message whose sender died mid-send", async () => {
    const to = address("interrumpido");
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `crash:${to}`, data: { n: 8 } });
    // What a process that crashed after claiming leaves behind: 'sending' with an expired lease.
    await api.db.execute(
      sql`UPDATE mail_outbox SET status = 'sending', attempts = 1, claimed_until = now() - interval '1 second' WHERE dedupe_key = ${`crash:${to}`}`,
    );
    await deliver();
    const r = await row(`crash:${to}`);
    expect(r.status).toBe("failed");
    expect(r.last_error).toMatch(/interrumpido/);
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(to))).toHaveLength(0);
  });

  it("two workers (two connections) never send a message twice", async () => {
    const tos = Array.from({ length: 30 }, () => address("paralelo"));
    for (const to of tos) await queueMail(api.db, { kind: "test-note", to, dedupeKey: `par:${to}`, data: { n: 9 } });
    // On PostgreSQL the second worker has its own pool, as a second server process would.
    const other = api.databaseUrl ? await openDatabase({ databaseUrl: api.databaseUrl }) : null;
    try {
      const results = await Promise.all([
        deliver({ batch: 4 }),
        deliverDue(other?.db ?? api.db, {
          transport: createMailTransport(smtpConfig()),
          config: smtpConfig(),
          messages: testMessages,
          log: () => {},
          batch: 4,
        }),
        deliver({ batch: 4 }),
      ]);
      let total = results.reduce((n, r) => n + r.sent, 0);
      while (total < tos.length) {
        const more = await Promise.all([deliver({ batch: 4 }), deliver({ batch: 4 })]);
        const sent = more.reduce((n, r) => n + r.sent, 0);
        expect(sent).toBeGreaterThan(0);
        total += sent;
      }
      expect(total).toBe(tos.length);
    } finally {
      await other?.close();
    }
    await Promise.all(tos.map((to) => smtp.waitFor(to)));
    for (const to of tos) expect(smtp.messages.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
  });

  it("the started worker sends what is queued, and stops cleanly", async () => {
    const to = address("servidor");
    const worker = startMailWorker(api.db, smtpConfig(), { messages: testMessages, everyMs: 50 });
    await queueMail(api.db, { kind: "test-note", to, dedupeKey: `srv:${to}`, data: { n: 10 } });
    worker.wake();
    await smtp.waitFor(to);
    await worker.stop();
  });
});

describe("embedded default: .eml files under DATA_DIR/mail", () => {
  it("writes one file per message and logs only the file: no address, no subject", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "ofertas-mail-"));
    try {
      const config = loadConfig({ NODE_ENV: "test", SESSION_SECRET: "test-secret-for-the-mail-tests-0123456789", DATA_DIR: dataDir });
      expect(config.SMTP_URL).toBeUndefined();
      const lines: string[] = [];
      const to = address("fichero");
      await queueMail(api.db, { kind: "test-note", to, dedupeKey: `file:${to}`, data: { n: 11 } });
      const transport = createMailTransport(config, (l) => lines.push(l));
      expect(transport.kind).toBe("files");
      expect(await deliverDue(api.db, { transport, config, messages: testMessages, log: () => {} })).toMatchObject({ sent: 1 });
      const files = await readdir(path.join(dataDir, "mail"));
      expect(files).toHaveLength(1);
      const mail = await simpleParser(await readFile(path.join(dataDir, "mail", files[0])));
      expect(mail.subject).toBe("Nota 11 — ñandú");
      expect(mail.attachments[0].filename).toBe("nota.txt");
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain(to);
      expect(lines[0]).not.toContain("Nota 11");
      expect(lines[0]).toContain(files[0]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("configuration", () => {
  it("validates SMTP_URL and MAIL_FROM at start", () => {
    const base = {
      NODE_ENV: "test" as const,
      SESSION_SECRET: "test-secret-for-the-mail-tests-0123456789",
      DATA_DIR: "/tmp/ofertas-test-unused",
    };
    expect(() => loadConfig({ ...base, SMTP_URL: "http://correo" })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ ...base, MAIL_FROM: "no es un correo" })).toThrow(/MAIL_FROM/);
    expect(loadConfig({ ...base, SMTP_URL: "smtps://u:p@smtp.example.es:465", MAIL_FROM: "Ofertas <hola@ofertas.es>" })).toMatchObject({
      SMTP_URL: "smtps://u:p@smtp.example.es:465",
      MAIL_FROM: "Ofertas <hola@ofertas.es>",
    });
  });
});
