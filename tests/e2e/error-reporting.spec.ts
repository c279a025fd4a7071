/**
 * Error reporting (SENTRY_DSN, docs/monitoring.md) in the browser. The suite's server has no DSN:
 * its pages load no error-reporting script at all. A server of its own with the DSN pointing at a
 * stand-in Sentry server: an error in the page reaches the stand-in, with nothing personal in it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { startSentryStandIn, type SentryStandIn } from "#tests/support/sentry";
import { expect, ready, test } from "./support/fixtures";

test("without SENTRY_DSN a page loads no error-reporting script and no SDK", { tag: "@js-covers" }, async ({ page, js }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  const response = await page.goto("/");
  await ready(page, js);
  expect(await response!.text()).not.toContain("data-sentry-dsn");
  expect(response!.headers()["content-security-policy"]).not.toMatch(/connect-src[^;]*sentry/);
  await page.waitForLoadState("load");
  expect(scripts.filter((url) => /error-reporting|sdk\.client|sentry/i.test(url))).toEqual([]);
  if (js) expect(scripts.length).toBeGreaterThan(0);
});

test.describe("with SENTRY_DSN", () => {
  test.describe.configure({ mode: "serial" });
  test.setTimeout(180_000);
  test.beforeEach(() => test.skip(test.info().project.name !== "js", "an error in the page needs JavaScript"));

  const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-sentry-"));
  let sentry: SentryStandIn;
  let server: ServerProcess;
  test.beforeAll(async () => {
    if (test.info().project.name !== "js") return;
    // A fresh embedded database migrates and loads the demo before /readyz: slow on a busy machine.
    test.setTimeout(180_000);
    sentry = await startSentryStandIn();
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: "", SENTRY_DSN: sentry.dsn, SENTRY_ENVIRONMENT: "e2e" });
    await server.waitReady();
  });
  test.afterAll(async () => {
    await server?.stop();
    await sentry?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("an uncaught error in the page reaches the stand-in: route id, no address, no cookie, no URL", async ({ page }) => {
    const response = await page.goto(server.url("/buscar?q=yoga&email=ana%40correo.es"));
    expect(response!.headers()["content-security-policy"]).toMatch(new RegExp(`connect-src [^;]*${new URL(sentry.dsn).origin}`));
    await expect(page.locator("html.js")).toHaveCount(1);
    await page.context().addCookies([{ name: "galleta", value: "galleta-secreta", url: server.url("/") }]);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("Fallo de prueba para ana@correo.es");
      });
    });
    const [event] = await sentry.waitForEvents(1, 20_000);
    expect(event.tags).toMatchObject({ source: "browser", route: "routes/buscar" });
    expect(event).toMatchObject({ environment: "e2e" });
    expect(event.exception?.values?.[0].value).toBe("Fallo de prueba para [email]");
    const raw = sentry.envelopes.map((e) => e.raw).join("\n");
    for (const secret of ["ana@correo.es", "ana%40correo.es", "galleta-secreta", "/buscar?"]) expect(raw, secret).not.toContain(secret);
    // Error reporting sets no cookie.
    expect((await page.context().cookies()).map((c) => c.name)).toEqual(["galleta"]);
  });
});
