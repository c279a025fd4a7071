/**
 * The mail-link tests' API, run with rotated secrets so that links signed with the old one are
 * shown to keep working, an SMTP server to receive what it sends, and a paid purchase to mail about.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { sealLink } from "#platform/signatures.server";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call } from "#tests/support/api-server";
import { startTestSmtp, type TestSmtp } from "#tests/support/smtp";
import { api, withFileApi } from "./_file-api";
import { capture, orderBody, sandboxAction, type Option } from "./_helpers";

export const OLD_SECRET = "test-secret-for-the-api-suite-0123456789";
export const NEW_SECRET = "nuevo-secreto-de-sesion-0123456789abcdef";

export let smtp: TestSmtp;

export function withMailApi(): void {
  // Rotated secrets: links signed with the old one must keep working.
  withFileApi({ env: { SESSION_SECRET: `${NEW_SECRET},${OLD_SECRET}` } });
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(() => smtp.close());
}

export const send = () => {
  // Mail links use the public origin (PUBLIC_URL); the API itself runs on 127.0.0.1.
  const config = { ...api.config, SMTP_URL: smtp.url, PUBLIC_URL: "https://ofertas.example" };
  return deliverDue(api.db, { transport: createMailTransport(config), config, log: () => {} });
};

/** A paid purchase, with or without the marketing consent ticked at checkout. */
export async function purchase(option: Option, email: string, consent = false) {
  const validated = await call(api, "/sales/validate/", { body: orderBody([{ option }], email, { mail_agreement: consent }) });
  expect(validated.status, JSON.stringify(validated.body)).toBe(200);
  const created = await call(api, "/sales/create/", { body: { session_token: validated.body.checkout_data.session_token } });
  await sandboxAction(created.body.payment, "pay");
  const captured = await capture(api, created.body.payment);
  expect(captured.body.status).toBe("paid");
  return captured.body;
}

export const unsubscribeToken = (email: string, secret = NEW_SECRET) => sealLink([secret], "unsubscribe", { email });
