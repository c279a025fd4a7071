import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? "/tmp/ofertas-e2e-data";

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "es-ES",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // The machine has no network: background services would only fail and slow the start.
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    // A fresh embedded database every run: the demo catalogue is the fixture. Access tokens live
    // 4 s, so every journey also crosses token refreshes.
    command: `rm -rf ${DATA_DIR} && npm run build && NODE_ENV=production DATA_DIR=${DATA_DIR} PORT=${PORT} JWT_ACCESS_SECONDS=4 tsx server.ts`,
    url: `${baseURL}/api/v0/public/offers/?page_size=1`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
