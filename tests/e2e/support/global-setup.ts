import { rm } from "node:fs/promises";
import { startTestSmtp } from "../../support/smtp";
import { E2E_INBOX, E2E_SMTP_PORT } from "./mail";

/** The run's SMTP server; it lives in the Playwright runner process until the run ends. */
export default async function globalSetup() {
  await rm(E2E_INBOX, { recursive: true, force: true });
  const smtp = await startTestSmtp({ port: E2E_SMTP_PORT, inboxDir: E2E_INBOX });
  return async () => {
    await smtp.close();
  };
}
