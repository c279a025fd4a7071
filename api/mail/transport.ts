import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "#platform/config.server";
import { logger } from "#platform/logger.server";

export type Attachment = { filename: string; content: Buffer; contentType: string };

export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: Attachment[];
  headers?: Record<string, string>;
  replyTo?: string;
  /** Stable per outbox row, so a message is recognisable wherever it ends up. */
  messageId: string;
};

export type MailTransport = {
  kind: "smtp" | "files";
  send(mail: OutgoingMail): Promise<{ messageId: string; file?: string }>;
  close(): void;
};

/**
 * The headers a DKIM signature covers: nodemailer's list (RFC 6376's advice, List-Unsubscribe
 * among them) and List-Unsubscribe-Post, which RFC 8058 requires signed and nodemailer leaves out.
 */
export const DKIM_SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "Subject",
  "Date",
  "Message-ID",
  "To",
  "Cc",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "Content-ID",
  "Content-Description",
  "Resent-Date",
  "Resent-From",
  "Resent-Sender",
  "Resent-To",
  "Resent-Cc",
  "Resent-Message-ID",
  "In-Reply-To",
  "References",
  "List-Id",
  "List-Help",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
  "List-Subscribe",
  "List-Post",
  "List-Owner",
  "List-Archive",
].join(":");

/** nodemailer's `dkim` option: every message signed when MAIL_DKIM_* are set, SMTP and files alike. */
function dkimOption(config: Pick<Config, "mailDkim">) {
  return config.mailDkim ? { dkim: { ...config.mailDkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {};
}

/** SMTP when SMTP_URL is set; otherwise .eml files under DATA_DIR/mail/ and one log line each, naming the file. */
export function createMailTransport(
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "dataDir" | "mailDkim">,
  log: (line: string) => void = (line) => logger.info(line),
): MailTransport {
  const envelope = (mail: OutgoingMail) => ({
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments,
    headers: mail.headers,
    replyTo: mail.replyTo,
    messageId: mail.messageId,
    date: new Date(),
  });

  if (config.SMTP_URL) {
    // Short timeouts: a claimed message waits for this, and its lease must outlast the worst case.
    const smtp = nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      ...dkimOption(config),
    } as Parameters<typeof nodemailer.createTransport>[0]);
    return {
      kind: "smtp",
      async send(mail) {
        const info = await smtp.sendMail(envelope(mail));
        return { messageId: info.messageId };
      },
      close: () => smtp.close(),
    };
  }

  const dir = path.join(config.dataDir, "mail");
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix", ...dkimOption(config) });
  return {
    kind: "files",
    async send(mail) {
      const info = await stream.sendMail(envelope(mail));
      // The mail holds login codes: its user's alone (platform/data-dir.server.ts).
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Named after the outbox row: writing it again would overwrite, never duplicate.
      const local = mail.messageId.replace(/^<|@.*$/g, "");
      const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}-${local}.eml`);
      // Written beside the folder, then moved in: whoever reads mail/ never sees half a message.
      const partial = path.join(config.dataDir, `.mail-${local}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, file);
      // Where it is, never to whom or its subject: a subject may carry a login code.
      log(`Correo guardado en ${path.relative(process.cwd(), file) || file}`);
      return { messageId: info.messageId, file };
    },
    close: () => {},
  };
}
