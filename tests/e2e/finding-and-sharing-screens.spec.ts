import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { addDays, madridDate } from "#rules/dates";
import { check, test, VIEWPORTS, type Problem } from "./support/axe";
import { acceptCookies, expect, ready } from "./support/fixtures";
import { partnerOffer, proposeChange } from "./support/partner-fixtures";

/**
 * The screens «Ordenar», the price range, «Cerca de mí», «Compartir» and the sale end touch, at
 * phone and desktop width: axe and the HTML checks find nothing, and a screenshot of each to look at.
 */
test("listing controls, the offer's share links and sale end, and the partner's field pass axe at 375 and 1280 px", async ({
  page,
  js,
  helper,
  loginAs,
}, info) => {
  test.setTimeout(150_000);
  const problems: Problem[] = [];
  const shoot = async (name: string) => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: info.outputPath(`${name}-${viewport.width}.png`), fullPage: viewport.width > 400 });
      await check(page, js, `${name} at ${viewport.width}`, problems, helper);
    }
  };
  const offer = await partnerOffer(page.request, `Ruta en bici ${info.project.name} ${Date.now().toString(36)}`, { active: true });
  await proposeChange(page.request, offer.uuid, { sale_until: addDays(madridDate(new Date()), 2) });

  await page.goto("/ofertas/category/restaurants/?sort=price&price_min=10&price_max=80");
  await ready(page, js);
  await acceptCookies(page);
  await shoot("category-sorted");
  await page.goto("/ofertas/?sort=nearby&near=28013");
  await ready(page, js);
  await expect(page.locator("article.card .card-meta").first()).toContainText(" · a ");
  await shoot("listing-nearby");
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await expect(page.getByText(/^A la venta hasta el \p{L}+, 23:59$/u)).toBeVisible();
  await shoot("offer-share-sale-end");
  await loginAs(DEMO_PARTNER);
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);
  await shoot("partner-offer-form");
  expect(problems).toEqual([]);
});
