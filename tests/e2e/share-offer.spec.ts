import { acceptCookies, expect, ready, roomyOffer, test } from "./support/fixtures";

test.use({ viewport: { width: 375, height: 740 } });

/**
 * «Compartir» on the offer's page: plain links without JavaScript, the phone's share sheet where
 * the browser has one, WhatsApp and «Copiar enlace» where it does not.
 */
test("without the Web Share API: WhatsApp and a link to copy (plain links without JS)", async ({ page, js, context }, testInfo) => {
  const offer = await roomyOffer(page);
  if (js) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: testInfo.project.use.baseURL });
  // Headless Chromium on Linux has no navigator.share; make sure of it.
  await page.addInitScript(() => {
    delete (Navigator.prototype as { share?: unknown }).share;
  });
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
  const url = new URL(`/ofertas/${offer.uuid}/`, page.url()).href;
  const share = page.getByRole("group", { name: "Compartir la oferta" });
  const whatsapp = share.getByRole("link", { name: "WhatsApp" });
  await expect(whatsapp).toHaveAttribute("href", `https://wa.me/?text=${encodeURIComponent(`${offer.title} ${url}`)}`);
  if (!js) {
    await expect(share.getByRole("link", { name: "Enlace de la oferta" })).toHaveAttribute("href", url);
    return;
  }
  await share.getByRole("button", { name: "Copiar enlace" }).click();
  await expect(share.getByRole("status")).toHaveText("Enlace copiado");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
});

test("with the Web Share API: one «Compartir» button opens the phone's sheet with the offer", async ({ page, js }) => {
  test.skip(!js, "the Web Share API needs JavaScript");
  const offer = await roomyOffer(page);
  // The sheet is the phone's own: recorded here, as the browser would receive it.
  await page.addInitScript(() => {
    (window as unknown as { shared: unknown[] }).shared = [];
    Object.defineProperty(Navigator.prototype, "share", {
      configurable: true,
      value: (data: unknown) => {
        (window as unknown as { shared: unknown[] }).shared.push(data);
        return Promise.resolve();
      },
    });
  });
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, true);
  await acceptCookies(page);
  const share = page.getByRole("group", { name: "Compartir la oferta" });
  await expect(share.getByRole("link", { name: "WhatsApp" })).toHaveCount(0);
  await share.getByRole("button", { name: "Compartir" }).click();
  const url = new URL(`/ofertas/${offer.uuid}/`, page.url()).href;
  expect(await page.evaluate(() => (window as unknown as { shared: unknown[] }).shared)).toEqual([{ title: offer.title, url }]);
});
