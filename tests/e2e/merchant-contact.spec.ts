import type { Locator, Page } from "@playwright/test";
import type { OfferDetail } from "#contract/offers";
import { check, test, VIEWPORTS } from "./support/axe";
import { addToCart, expect, fillCheckout, openCheckout, ready, uniqueEmail, type OfferSummary } from "./support/fixtures";
import { smallTargets } from "./support/tap-targets";

test.use({ viewport: { width: 375, height: 740 } });

/** A demo offer whose conditions ask to book by phone, from a partner who gave a phone, an email and a website. */
async function bookByPhoneOffer(page: Page): Promise<OfferSummary & OfferDetail> {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as { results: OfferSummary[] };
  for (const summary of results) {
    if (summary.price_options[0].available < 20) continue;
    const offer = (await (await page.request.get(`/api/v0/public/offers/${summary.uuid}/`)).json()) as OfferDetail;
    const { phone, email, website } = offer.organization;
    if (phone && email && website && /reserva previa por tel/i.test(offer.conditions)) return { ...summary, ...offer } as never;
  }
  throw new Error("no demo offer asks to book by phone");
}

/** «Reservar»: the booking line, and a call, a mail and a website link, each a 44 px target. */
async function expectBooking(page: Page, block: Locator, offer: OfferDetail) {
  const { phone, email, website } = offer.organization as { phone: string; email: string; website: string };
  await expect(block).toBeVisible();
  await expect(block.getByRole("heading", { name: "Reservar" })).toBeVisible();
  await expect(block).toContainText(/Reserva previa por tel/);
  await expect(
    block.getByRole("link", { name: new RegExp(`^Llamar para reservar: ${phone.replace(/\+/, "\\+").replace(/ /g, "\\s")}$`) }),
  ).toHaveAttribute("href", `tel:${phone.replace(/[^\d+]/g, "")}`);
  await expect(block.getByRole("link", { name: email })).toHaveAttribute("href", `mailto:${email}`);
  const host = website.replace(/^https?:\/\//, "").replace(/\/$/, "");
  await expect(block.getByRole("link", { name: new RegExp(host.replace(/\./g, "\\.")) })).toHaveAttribute(
    "href",
    new RegExp(`^https://${host}`),
  );
  for (const link of await block.getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.height, await link.innerText()).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
  expect(await smallTargets(page)).toEqual([]);
}

test("the merchant's phone, email and website reach the buyer on the offer, success and coupons pages", async ({
  page,
  js,
  helper,
}, info) => {
  test.setTimeout(180_000); // a whole purchase, and four full-page screenshots
  const offer = await bookByPhoneOffer(page);
  const problems: string[] = [];
  // Screenshots to look at, and axe at both widths.
  const shoot = async (name: string) => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: info.outputPath(`${name}-${viewport.width}.png`), fullPage: true });
      await check(page, js, `${name} at ${viewport.width}`, problems, helper);
    }
    await page.setViewportSize({ width: 375, height: 740 });
  };

  // The offer's page, as addToCart leaves it.
  await addToCart(page, js, offer, 1);
  await expectBooking(page, page.getByRole("region", { name: `Reservar en ${offer.organization.name}` }), offer);
  await shoot("offer");

  await openCheckout(page, js);
  await fillCheckout(page, uniqueEmail("reservar"));
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await ready(page, js);
  await expectBooking(page, page.getByRole("region", { name: `Reservar en ${offer.organization.name}` }), offer);
  await shoot("success");

  await page.getByRole("link", { name: "Ver mis cupones" }).click();
  await expect(page).toHaveURL(/\/order\/coupons\?/);
  await ready(page, js);
  await expectBooking(page, page.getByRole("region", { name: `Reservar en ${offer.organization.name}` }), offer);
  expect(problems).toEqual([]);
});
