/**
 * A real SMTP server for tests (smtp-server, from nodemailer's authors) and the readers that wait
 * for its messages, parsed with mailparser.
 *
 * - In a vitest file: `const smtp = await startTestSmtp()`, give the app `SMTP_URL: smtp.url`,
 *   then `await smtp.waitFor("buyer@correo.es")`. `smtp.failNext(1)` makes the next delivery fail
 *   with a 451 so retries can be tested.
 * - In Playwright: tests/e2e/support/global-setup.ts starts one on E2E_SMTP_PORT with an `inboxDir`, the web
 *   server gets SMTP_URL pointing at it, and tests (other processes) call
 *   `waitForMail(E2E_INBOX, address)` from tests/e2e/support/mail.ts, which reads that folder.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = ParsedMail & { envelopeTo: string[]; raw: Buffer };

export type TestSmtp = {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** The next `count` recipients are refused with a temporary 451. */
  failNext: (count?: number) => void;
  waitFor: (to: string, options?: WaitOptions) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

export type WaitOptions = { subject?: RegExp; timeoutMs?: number };

const recipients = (mail: ParsedMail): string[] => {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
};

function matches(mail: ParsedMail, to: string, subject?: RegExp): boolean {
  return recipients(mail).includes(to.toLowerCase()) && (!subject || subject.test(mail.subject ?? ""));
}

export async function startTestSmtp(options: { port?: number; host?: string; inboxDir?: string } = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: { to: string; subject?: RegExp; resolve: (m: ReceivedMail) => void }[] = [];
  let failures = 0;
  let seq = 0;
  if (options.inboxDir) await mkdir(options.inboxDir, { recursive: true });

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (failures > 0) {
        failures--;
        const error = Object.assign(new Error("Buzón no disponible temporalmente, inténtalo más tarde"), { responseCode: 451 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        try {
          const parsed = await simpleParser(raw);
          const mail = Object.assign(parsed, { envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw });
          messages.push(mail);
          if (options.inboxDir) {
            await writeFile(path.join(options.inboxDir, `${Date.now()}-${process.pid}-${++seq}.eml`), raw);
          }
          for (const w of [...waiters]) {
            if (matches(mail, w.to, w.subject)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(mail);
            }
          }
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    messages,
    failNext: (count = 1) => {
      failures = count;
    },
    waitFor: (to, { subject, timeoutMs = 10_000 } = {}) => {
      const found = messages.find((m) => matches(m, to, subject));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { to, subject, resolve: (m: ReceivedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`Ningún correo para ${to}${subject ? ` con asunto ${subject}` : ""} en ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every message a test SMTP server wrote to `inboxDir` (oldest first). */
export async function readInbox(inboxDir: string): Promise<ReceivedMail[]> {
  let files: string[];
  try {
    files = (await readdir(inboxDir)).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (f) => {
      const raw = await readFile(path.join(inboxDir, f));
      const parsed = await simpleParser(raw);
      return Object.assign(parsed, { envelopeTo: recipients(parsed), raw });
    }),
  );
}

/** Polls `inboxDir` until a message to `to` (and with a matching subject) arrives. */
export async function waitForMail(inboxDir: string, to: string, { subject, timeoutMs = 30_000 }: WaitOptions = {}): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readInbox(inboxDir)).find((m) => matches(m, to, subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`Ningún correo para ${to}${subject ? ` con asunto ${subject}` : ""} en ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every web link of a message, as sent: the HTML's hrefs, the text part's URLs, List-Unsubscribe. */
export function linksOf(mail: { html?: string | false; text?: string; raw: Buffer }): string[] {
  const html = [...String(mail.html || "").matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
  const text = [...(mail.text ?? "").matchAll(/https?:\/\/[^\s\]>)]+/g)].map((m) => m[0]);
  const head = mail.raw
    .toString("utf8")
    .split(/\r?\n\r?\n/)[0]
    .replace(/\r?\n[ \t]+/g, " ");
  const header = [...head.matchAll(/^List-Unsubscribe:\s*<([^>]+)>/gim)].map((m) => m[1]);
  return [...html, ...text, ...header].filter((link) => /^https?:\/\//.test(link));
}

/** All messages to `to` in `inboxDir` right now. */
export async function mailsTo(inboxDir: string, to: string, subject?: RegExp): Promise<ReceivedMail[]> {
  return (await readInbox(inboxDir)).filter((m) => matches(m, to, subject));
}
