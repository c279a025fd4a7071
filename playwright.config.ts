// First: the run's ports and data directory, which the modules below read.
import { E2E_DATA_DIR, E2E_PORT, E2E_SMTP_PORT } from "./tests/e2e/support/run-ports";
import { existsSync } from "node:fs";
import { defineConfig, type LaunchOptions } from "@playwright/test";
import { startEnv, startFlags } from "./scripts/start-flags";

const PORT = E2E_PORT;
const baseURL = `http://localhost:${PORT}`;
const DATA_DIR = E2E_DATA_DIR;
// A second server, the same build, with every third party configured: the consent
// tests run against it, the rest of the suite keeps the shop as it is with no keys set.
const THIRD_PARTY_PORT = PORT + 1;
// Stands in for a maps provider's static image: the server fetches it like any other URL.
const STATIC_MAP_IMAGE = "aceite-oliva-virgen-extra-sevilla-cover.webp";
export const THIRD_PARTY_URL = `http://localhost:${THIRD_PARTY_PORT}`;
export const THIRD_PARTY_ENV = {
  ANALYTICS_API_KEY: "e2e-analytics-key-0123456789",
  GTM_ID: "GTM-E2ETEST",
  MAPS_TILES_URL: "https://tiles.maps.example/{z}/{x}/{y}.png",
  MAPS_STATIC_URL: `http://localhost:${PORT + 1}/images/demo/${STATIC_MAP_IMAGE}?center={lat},{lon}`,
  CAPTCHA_SITE_KEY: "1x00000000000000000000AA",
  CAPTCHA_SECRET: "1x0000000000000000000000000000000AA",
  PAYMENT_PROVIDER: "paypal",
  PAYPAL_CLIENT_ID: "e2e-paypal-client-id",
  PAYPAL_CLIENT_SECRET: "e2e-paypal-secret",
  PAYPAL_WEBHOOK_ID: "e2e-paypal-webhook",
  // PayPal's API is msw in that server; a buyer it never answers is back on /checkout in 2 s.
  PAYMENT_TIMEOUT_MS: "2000",
  // Social login: the providers' servers are msw inside that server (server-with-social-mocks.ts),
  // their consent pages are page.route in the browser (third-party/social-login.spec.ts).
  GOOGLE_CLIENT_ID: "e2e-google-client.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "e2e-google-secret",
  APPLE_CLIENT_ID: "es.ofertas.e2e",
  APPLE_TEAM_ID: "E2ETEAM123",
  APPLE_KEY_ID: "E2EKEY1234",
  // A throwaway P-256 key made for these tests, line breaks written as backslash-n as in a .env file.
  APPLE_PRIVATE_KEY:
    "-----BEGIN PRIVATE KEY-----\\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUa8Hk2a2mmvWFRTk\\nQ+A83VLYTnOJSPpPEKmvsPJqOW+hRANCAAQBceBsRLThjhrHBDeLGptlgcxgAywD\\nbmm6dnSWEKAlWhKS4THcbnWxzEBZBQnJ9uYSlVmfJGeQVEdNamkT9PLK\\n-----END PRIVATE KEY-----\\n",
  FACEBOOK_APP_ID: "424242424242",
  FACEBOOK_APP_SECRET: "e2e-facebook-secret",
};
// `npm start`'s environment (NODE_ENV=production among it), as a deployment sets it.
// CONTRACT_CHECK=1: the storefront parses every API answer with the contract's schemas, as in development.
// RATE_LIMIT_EXEMPT: every browser of the suite is this machine, buying far more than a buyer would.
const START_ENV = Object.entries({ ...startEnv(), CONTRACT_CHECK: "1", RATE_LIMIT_EXEMPT: "loopback" })
  .map(([k, v]) => `${k}=${v}`)
  .join(" ");
const thirdPartyEnv = Object.entries(THIRD_PARTY_ENV)
  .map(([k, v]) => `${k}='${v}'`)
  .join(" ");

// Debian's Chromium, both builds of it. The headless shell (Debian's chromium-headless-shell, the
// build Playwright itself runs headless tests on) renders with the same Blink for markedly less CPU
// (its renderers and browser process both). It does not apply context.route to a
// navigation's redirect to another host (the request goes out to DNS instead): social-login.spec.ts
// says how its stand-ins are reached. Without the shell, everything runs on the full browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HEADLESS_SHELL = process.env.HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
const SHELL_OR_CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
function launch(executablePath: string): LaunchOptions {
  // The machine has no network: background services would only fail and slow the start.
  return {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  };
}

// `npm run test:operator` asks for the operator's checks alone: they start servers of their own,
// so the shop, the third-party shop and the run's SMTP server are not started for them.
const OPERATOR_CHECKS_ONLY = process.env.OPERATOR_CHECKS_ONLY === "1";

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Most of a test's time is spent waiting (the server, mail, the browser's network): three at a
  // time keep two cores busier than two do.
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "es-ES",
    // Recording a trace costs every test, failing or not: screencast frames, DOM snapshots and
    // the worker's work on them, about as much CPU as the tests themselves. On CI a failure is
    // retried once, and that retry is recorded; locally, `--trace retain-on-failure` records.
    trace: process.env.CI ? "on-first-retry" : "off",
    launchOptions: launch(SHELL_OR_CHROMIUM),
    // The offline worker answers a page's requests itself, and page.route never sees what a worker
    // fetches: a test that holds or fails a request would be testing the worker's network instead.
    // offline.spec.ts allows it and tests it.
    serviceWorkers: "block",
  },
  // A real SMTP server for the run (tests/e2e/support/mail.ts explains how tests read what it receives).
  globalSetup: OPERATOR_CHECKS_ONLY ? undefined : "./tests/e2e/support/global-setup.ts",
  // npm test runs js, no-js and third-party; npm run test:operator runs operator (docs/testing.md).
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: /third-party\// },
    // A test tagged @js-covers makes the same requests with JS off as on: it runs once, in `js`.
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: /third-party\//, grepInvert: /@js-covers/ },
    // Third-party hosts are mocked with page.route inside these tests; each file sets JS on or off.
    { name: "third-party", testMatch: /third-party\/.*\.spec\.ts$/, use: { baseURL: THIRD_PARTY_URL } },
    // The operator's checks: compiled servers in processes of their own, no browser.
    { name: "operator", testDir: "tests/operator", testMatch: /\.spec\.ts$/ },
  ],
  webServer: OPERATOR_CHECKS_ONLY
    ? []
    : [
        {
          // A fresh embedded database every run: the demo catalogue is the fixture. Access tokens live
          // 4 s, so every journey also crosses token refreshes. Mail goes to the run's SMTP server.
          // Built only when a source is newer than the build (npm test builds first).
          command: `rm -rf ${DATA_DIR} && node scripts/build-if-needed.mjs && ${START_ENV} DATA_DIR=${DATA_DIR} PORT=${PORT} JWT_ACCESS_SECONDS=4 SMTP_URL=smtp://127.0.0.1:${E2E_SMTP_PORT} FEEDBACK_DELAY_DAYS=0 node ${startFlags().join(" ")} build/node/server.js`,
          url: `${baseURL}/api/v0/public/offers/?page_size=1`,
          reuseExistingServer: false,
          timeout: 180_000,
          stdout: "ignore",
          stderr: "pipe",
        },
        {
          // Waits for the first server (it builds), then starts on the same build with the keys set.
          command:
            `node -e "const u='${baseURL}/api/v0/public/offers/?page_size=1';(async()=>{for(;;){try{if((await fetch(u)).ok)return}catch{}await new Promise(r=>setTimeout(r,500))}})()" && ` +
            `rm -rf ${DATA_DIR}-3p && ${START_ENV} DATA_DIR=${DATA_DIR}-3p PORT=${THIRD_PARTY_PORT} ${thirdPartyEnv} tsx tests/e2e/third-party/server-with-social-mocks.ts`,
          url: `${THIRD_PARTY_URL}/api/v0/public/offers/?page_size=1`,
          reuseExistingServer: false,
          timeout: 240_000,
          stdout: "ignore",
          stderr: "pipe",
        },
      ],
});
