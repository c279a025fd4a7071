/**
 * A buyer's coupons without a connection: the coupons page, its QR codes and codes and the PDF, kept by the
 * offline worker once opened online; any other page offline is «Sin conexión» with «Mis cupones»;
 * what was kept goes at logout. The worker needs JavaScript: without it the pages are as always.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test, uniqueEmail, type OfferSummary } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test.use({ viewport: { width: 375, height: 800 }, serviceWorkers: "allow" });

async function roomy(request: APIRequestContext): Promise<OfferSummary> {
  const response = await request.get("/api/v0/public/offers/?page_size=100");
  return ((await response.json()) as { results: OfferSummary[] }).results.filter((o) => o.price_options.some((p) => p.available >= 20))[2];
}

/** A guest's purchase through the API, and its signed coupons link from the purchase mail. */
async function purchaseLink(request: APIRequestContext, email: string): Promise<string> {
  const option = (await roomy(request)).price_options.find((p) => p.available >= 20)!;
  const validated = await request.post("/api/v0/sales/validate/", {
    data: {
      items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.actual_price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email, need_receipt: false, mail_agreement: false, for_present: [] },
    },
  });
  const token = (await validated.json()).checkout_data.session_token as string;
  const { payment } = await (await request.post("/api/v0/sales/create/", { data: { session_token: token } })).json();
  await request.post(payment.redirect_url, { form: { action: "pay" }, maxRedirects: 0 });
  await request.post(`/api/v0/sales/capture/${payment.sale_id}/`, { data: { transaction_id: payment.transaction_id } });
  const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  const match = /href="(https?:\/\/[^"]*\/order\/coupons\?[^"]*)"/.exec(mail.html as string)!;
  const url = new URL(match[1].replace(/&amp;/g, "&"));
  return `${url.pathname}${url.search}`;
}

/** The addresses of `path` the worker keeps on this browser (its coupons cache). */
const kept = (page: Page, path: string) =>
  page.evaluate(async (path) => {
    if (!(await caches.has("ofertas-cupones"))) return [];
    const keys = await (await caches.open("ofertas-cupones")).keys();
    return keys.map((k) => new URL(k.url).pathname).filter((p) => p === path);
  }, path);
const keptPages = (page: Page) => kept(page, "/order/coupons");

/** Downloads the coupons' PDF by the page's link; its first bytes. */
async function downloadPdf(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Descargar los cupones en PDF" }).click(),
  ]);
  expect(await download.failure()).toBeNull();
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).subarray(0, 5).toString("latin1");
}

async function openAndKeep(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => keptPages(page), { timeout: 15_000 }).toHaveLength(1);
}

test("coupons page and PDF opened online → offline, reload: the QR, the codes and the PDF are there; other pages say «Sin conexión»", async ({
  page,
  context,
  js,
}) => {
  const link = await purchaseLink(page.request, uniqueEmail(`offline-${js ? "js" : "nojs"}`));
  if (!js) {
    // Without JavaScript no worker registers and the page is the same server-rendered page.
    await page.goto(link);
    await expect(page.getByTestId("coupon-code")).toHaveCount(1);
    expect(context.serviceWorkers()).toHaveLength(0);
    return;
  }
  await openAndKeep(page, link);
  const codes = await page.getByTestId("coupon-code").allTextContents();
  expect(codes).toHaveLength(1);
  // The PDF, downloaded once online, is kept too.
  expect(await downloadPdf(page)).toBe("%PDF-");
  await expect.poll(() => kept(page, "/order/coupon-pdf")).toHaveLength(1);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();
  expect(await page.getByTestId("coupon-code").allTextContents()).toEqual(codes);
  await expect(page.locator("svg.coupon-qr")).toHaveCount(1);
  expect(await downloadPdf(page)).toBe("%PDF-");

  await page.goto("/ofertas/");
  await expect(page.getByRole("heading", { name: "Sin conexión", level: 1 })).toBeVisible();
  const mine = page.getByRole("link", { name: "Mis cupones" });
  await expect(mine).toHaveAttribute("href", link);
  await mine.click();
  await expect(page.getByTestId("coupon-code")).toHaveText(codes);
  await context.setOffline(false);
});

test("logging out, or another account logging in, drops the kept coupons", async ({ page, js, loginAs }) => {
  test.skip(!js, "the worker needs JavaScript");
  const link = await purchaseLink(page.request, uniqueEmail("offline-logout"));
  await loginAs();
  await openAndKeep(page, link);
  await page.goto("/cuenta");
  await page
    .getByRole("button", { name: /Cerrar sesión/ })
    .first()
    .click();
  // Logged out once the home page shows «Entrar»: a page opened sooner may still be the account's.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
  await expect.poll(() => keptPages(page)).toHaveLength(0);

  // A guest's kept coupons go when someone logs in on this browser.
  await openAndKeep(page, link);
  await loginAs();
  await page.goto("/");
  await expect.poll(() => keptPages(page)).toHaveLength(0);
});

test("offline, the search dialog says the search failed and the page stays", async ({ page, context, js }) => {
  test.skip(!js, "the worker and the dialog need JavaScript");
  await page.goto("/");
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The page that registered the worker is controlled once it has claimed it.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // The dialog's first answer (recent and popular searches) comes once the search's module has
  // loaded: a module the app cannot load offline makes it reload the page, which is then offline.
  const opened = page.waitForResponse((response) => new URL(response.url()).pathname === "/buscar.data");
  await page.getByRole("link", { name: "Buscar" }).click();
  const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
  await expect(dialog).toBeVisible();
  await opened;
  await context.setOffline(true);
  await dialog.getByRole("searchbox").fill("paella");
  await expect(dialog.getByText("No hemos podido buscar ahora. Comprueba tu conexión e inténtalo de nuevo.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await context.setOffline(false);
});
