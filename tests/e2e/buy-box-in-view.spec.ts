import type { Page } from "@playwright/test";
import type { OfferDetail } from "#contract/offers";
import { acceptCookies, expect, ready, test } from "./support/fixtures";

/** A demo offer with reviews and conditions: a page long enough to scroll well past its box. */
async function longOffer(page: Page): Promise<OfferDetail> {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=12")).json()) as { results: { uuid: string }[] };
  for (const { uuid } of results) {
    const offer = (await (await page.request.get(`/api/v0/public/offers/${uuid}/`)).json()) as OfferDetail;
    if (offer.reviews.length && offer.conditions) return offer;
  }
  throw new Error("no long offer in the demo catalogue");
}

type Box = { top: number; bottom: number };
const boxOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el): Box => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test("the buy box's «Añadir al carrito» stays in view while the page scrolls, and stops above the footer", async ({ page, js }) => {
    const offer = await longOffer(page);
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, js);
    await acceptCookies(page);
    const add = page.locator("#buy").getByRole("button", { name: "Añadir al carrito", exact: true });

    // Down to the reviews, far below the box's own place: the button is still on screen, whole.
    await page.getByRole("heading", { name: "Opiniones" }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 300));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(700);
    await expect(add).toBeInViewport({ ratio: 1 });
    const buy = await boxOf(page, ".offer-buy");
    expect(buy.bottom - buy.top).toBeLessThanOrEqual(720);

    // At the foot of the page the box has stopped with its column: it never covers the footer.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const [box, footer] = [await boxOf(page, ".offer-buy"), await boxOf(page, ".site-footer")];
    expect(box.bottom).toBeLessThanOrEqual(footer.top);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("tabbing through the offer page, no focused control sits under the buy bar", async ({ page, js }) => {
    const offer = await longOffer(page);
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, js);
    await acceptCookies(page);
    let checked = 0;
    let underBar = 0;
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press("Tab");
      const seen = await page.evaluate(() => {
        const el = document.activeElement;
        const bar = document.querySelector(".buy-bar");
        if (!el || el === document.body || !bar) return null;
        if (bar.contains(el) || el.closest(".site-footer")) return { done: !!el.closest(".site-footer"), hidden: false, el: "" };
        const barBox = bar.getBoundingClientRect();
        const shown = getComputedStyle(bar).display !== "none" && barBox.height > 0;
        const r = el.getBoundingClientRect();
        return { done: false, hidden: shown && r.bottom > barBox.top && r.top < barBox.bottom, el: el.outerHTML.slice(0, 120) };
      });
      if (!seen) continue;
      if (seen.done) break;
      checked++;
      if (seen.hidden) {
        underBar++;
        console.log(`under the buy bar: ${seen.el}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(underBar).toBe(0);
  });
});
