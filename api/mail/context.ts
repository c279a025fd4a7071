import type { Config } from "#platform/config.server";
import { sealLink, type LinkPurpose } from "#platform/signatures.server";
import type { Executor } from "#api/db/client";
import type { Attachment } from "./transport";

/** What a render function gets besides its data. */
export type MailContext = {
  db: Executor;
  config: Config;
  /** The shop's public origin for links: PUBLIC_URL, or this server on localhost. */
  origin: string;
  to: string;
};

export type RenderedMail = {
  subject: string;
  html: string;
  text: string;
  attachments?: Attachment[];
  headers?: Record<string, string>;
  /** Where a reply goes when it should not go to MAIL_FROM (a lead's applicant). */
  replyTo?: string;
};

/** null: the message no longer applies (the address unsubscribed meanwhile) and is skipped. */
export type MessageRenderer = (data: Record<string, unknown>, ctx: MailContext) => Promise<RenderedMail | null>;

/** Links in mail have no request to take an origin from: the configured one, else this server. */
export function mailOrigin(config: Pick<Config, "PUBLIC_URL" | "PORT">): string {
  return config.PUBLIC_URL?.replace(/\/$/, "") ?? `http://localhost:${config.PORT}`;
}

/**
 * The `t=` value of a link that stands for this mail's recipient (docs/mail.md, «Enlaces»): the
 * address travels sealed, never in the URL.
 */
export function linkToken(ctx: Pick<MailContext, "config" | "to">, purpose: LinkPurpose, offer?: string): string {
  return sealLink(ctx.config.sessionSecrets, purpose, { email: ctx.to, offer });
}

/** A render error that retrying cannot fix (unknown kind, data that no longer exists). */
export class PermanentMailError extends Error {}
