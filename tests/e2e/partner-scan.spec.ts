import { writeFile } from "node:fs/promises";
import type { Route } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { voucherQrY4m } from "#tests/support/voucher-qr";
import { validCodes } from "./support/till-codes";
import { check, test, VIEWPORTS } from "./support/axe";
import { chooseCookies, expect, ready } from "./support/fixtures";

/**
 * «Escanear el QR» at the till, in a browser without BarcodeDetector (Chromium headless, like an
 * iPhone): the camera is Chromium's fake one playing a video of a voucher's QR, and the polyfill
 * reads it. partner-till.spec.ts takes the first two and the last two codes; this takes the third
 * (with JS) and the third from the end (without).
 */
test("the camera reads a voucher's QR and the till redeems it", async ({
  js,
  playwright,
  launchOptions,
  baseURL,
  helper,
  request,
  loginAs,
}, info) => {
  test.skip(!js, "Scanning needs JavaScript; without it the typed code is the way (next test).");
  test.setTimeout(120_000);
  const code = (await validCodes(request))[2];
  const video = info.outputPath("voucher-qr.y4m");
  await writeFile(video, voucherQrY4m(code));
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [
      ...(launchOptions.args ?? []),
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({
      baseURL,
      locale: "es-ES",
      permissions: ["camera"],
      serviceWorkers: "block",
      viewport: VIEWPORTS[0],
    });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const asked: string[] = [];
    page.on("request", (r) => {
      asked.push(r.url());
      if (!r.url().startsWith(baseURL!)) elsewhere.push(r.url());
    });
    await loginAs(DEMO_PARTNER, page);
    const shop = await page.goto("/");
    expect(shop!.headers()["content-security-policy"]).not.toContain("wasm-unsafe-eval");
    const till = await page.goto("/socios");
    // ZXing's WebAssembly may compile on the till's pages, and only there.
    expect(till!.headers()["content-security-policy"]).toContain("'wasm-unsafe-eval'");
    await ready(page, true);
    await chooseCookies(page, "Rechazar todo");
    expect(await page.evaluate(() => "BarcodeDetector" in window), "this browser has no detector of its own").toBe(false);

    // The reader's wasm is held until the open camera has been looked at.
    let wasm: Route | undefined;
    const wasmAsked = new Promise<void>((resolve) =>
      page.route(/\/assets\/zxing_reader-[\w-]+\.wasm$/, (route) => {
        wasm = route;
        resolve();
      }),
    );
    // Neither the shop's page nor the till loads the reader before the camera opens.
    expect(asked.filter((url) => /ponyfill|zxing/.test(url))).toEqual([]);
    const scan = page.getByRole("button", { name: "Escanear el QR" });
    await expect(scan, "offered without a BarcodeDetector").toBeVisible();
    const wasmServed = page.waitForResponse(/\/assets\/zxing_reader-[\w-]+\.wasm$/);
    await scan.click();
    await expect(page.getByLabel("Vista de la cámara")).toBeVisible();
    await wasmAsked;
    await expect.poll(() => page.getByLabel("Vista de la cámara").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: info.outputPath(`till-camera-${viewport.width}.png`), fullPage: true });
      await check(page, true, `/socios with the camera open at ${viewport.width}`, problems, helper);
    }
    await page.setViewportSize(VIEWPORTS[0]);
    await wasm!.continue();
    const served = (await wasmServed).headers();
    expect(served["content-type"]).toBe("application/wasm");
    expect(served["content-encoding"], "compressed at build time").toMatch(/^(br|gzip)$/);

    // The code read reaches the field and is checked, as if typed.
    await expect(page.getByText("Cupón válido")).toBeVisible();
    await expect(page.getByLabel("Vista de la cámara")).toHaveCount(0);
    await expect(page.locator(".coupon-details")).toContainText(code);
    await page.getByRole("button", { name: "Canjear", exact: true }).click();
    await expect(page.getByText("Cupón canjeado")).toBeVisible();
    await expect(page.locator(".coupon-details")).toContainText(code);
    expect(problems).toEqual([]);
    expect(elsewhere, "the reader and its wasm come from this site").toEqual([]);
  } finally {
    await browser.close();
  }
});

test("without JavaScript there is no camera button, and the typed code redeems", async ({ page, js, request, loginAs }) => {
  test.skip(js, "With JavaScript the camera is tested above; the typed code in partner-till.spec.ts.");
  const codes = await validCodes(request);
  const code = codes[codes.length - 3];
  await loginAs(DEMO_PARTNER);
  await page.goto("/socios");
  await ready(page, false);
  await expect(page.getByRole("button", { name: "Escanear el QR" })).toHaveCount(0);
  await page.getByLabel("Código del cupón").fill(code.replaceAll("-", "").toLowerCase());
  await page.getByRole("button", { name: "Comprobar" }).click();
  await expect(page.getByText("Cupón válido")).toBeVisible();
  await page.getByRole("button", { name: "Canjear", exact: true }).click();
  await expect(page.getByText("Cupón canjeado")).toBeVisible();
  await expect(page.locator(".coupon-details")).toContainText(code);
});
