/**
 * Mail in the browser suite. global-setup.ts starts a real SMTP server (tests/support/smtp.ts) on
 * E2E_SMTP_PORT before the run; the web server sends to it (SMTP_URL in playwright.config.ts), and
 * it writes every message it accepts to E2E_INBOX. Tests run in other processes, so they read
 * that folder: `await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ })`.
 */
import { E2E_DATA_DIR } from "./run-ports";

export { mailsTo, readInbox, waitForMail } from "../../support/smtp";
export { E2E_SMTP_PORT } from "./run-ports";

export const E2E_INBOX = `${E2E_DATA_DIR}-inbox`;
