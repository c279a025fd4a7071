import { DEMO_PARTNER, DEMO_STAFF } from "#api/db/demo-accounts";
import { check, test, VIEWPORTS, type Problem } from "./support/axe";
import { expect, ready } from "./support/fixtures";
import { decideChange, partnerOffer, proposeChange } from "./support/partner-fixtures";

/**
 * An offer on sale keeps selling as staff approved it while its partner's new words and prices
 * wait for review: the partner sees what they sent, staff approve or reject it on /admin, and only
 * then does the shop change. With and without JavaScript.
 */
test("changes to an offer on sale wait for staff; the shop sells the approved version until they approve", async ({
  page,
  browser,
  js,
  loginAs,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = `${testInfo.project.name} ${Date.now().toString(36)}`;
  const title = `Ruta en kayak ${tag}`;
  const renamed = `Ruta en kayak con picnic ${tag}`;
  const offer = await partnerOffer(page.request, title, { active: true });
  await loginAs(DEMO_PARTNER);
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);
  await expect(page.getByText("La oferta está a la venta: los cambios de título")).toBeVisible();

  // The partner changes the title, a price and the tickets.
  const form = page.locator("#offer-form");
  await form.getByLabel("Título").fill(renamed);
  await form.getByLabel("Precio de oferta 1 (€)").fill("19,90");
  await form.getByLabel("Entradas a la venta 1").fill("25");
  await form.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(
    page.getByText("Cambios enviados a revisión. Hasta que el equipo los apruebe, la oferta sigue a la venta como estaba.").first(),
  ).toBeVisible();
  const notice = page.getByRole("region", { name: "Cambios pendientes de revisión" });
  await expect(notice).toContainText(`Propuesto: ${renamed}`);
  await expect(notice).toContainText("Ahora: 25,00 € (precio habitual 40,00 €)");
  await expect(notice).toContainText("Propuesto: 19,90 € (precio habitual 40,00 €)");
  // The form shows what they sent, so saving again keeps it; the page title is the live one.
  await expect(form.getByLabel("Título")).toHaveValue(renamed);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await page.goto("/socios/ofertas");
  await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText("Cambios pendientes de revisión");

  // The shop: the approved title and price; the tickets changed at once.
  const shopper = await browser.newContext({ javaScriptEnabled: js, baseURL: testInfo.project.use.baseURL });
  const shop = await shopper.newPage();
  await shop.goto(`/ofertas/${offer.uuid}/`);
  await expect(shop.getByRole("heading", { level: 1 })).toHaveText(title);
  const live = (await (await shop.request.get(`/api/v0/public/offers/${offer.uuid}/`)).json()) as {
    title: string;
    price_options: { actual_price: string; available: number }[];
  };
  expect(live).toMatchObject({ title, price_options: [{ actual_price: "25.00", available: 25 }] });

  // Staff see the change beside what is on sale, and approve it.
  const staffContext = await browser.newContext({ javaScriptEnabled: js, baseURL: testInfo.project.use.baseURL });
  const staff = await staffContext.newPage();
  await loginAs(DEMO_STAFF, staff);
  await staff.goto("/admin");
  await ready(staff, js);
  const change = staff.getByRole("article", { name: title, exact: true });
  await expect(change).toContainText(`Ahora: ${title}`);
  await expect(change).toContainText(`Propuesto: ${renamed}`);
  await change.getByRole("button", { name: `Aprobar los cambios de «${title}»` }).click();
  await expect(staff.getByText("Cambios aprobados: la oferta ya se vende con ellos.").first()).toBeVisible();
  await expect(staff.getByRole("article", { name: title, exact: true })).toHaveCount(0);

  await shop.goto(`/ofertas/${offer.uuid}/`);
  await expect(shop.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await expect(shop.getByText("19,90 €").first()).toBeVisible();

  // Another change, taken back by the partner; then one staff reject, with the reason the partner reads.
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);
  await expect(page.getByRole("region", { name: "Cambios pendientes de revisión" })).toHaveCount(0);
  await form.getByLabel("Condiciones").fill("Sin reserva.");
  await form.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(notice).toContainText("Propuesto: Sin reserva.");
  await ready(page, js);
  await notice.getByRole("button", { name: "Retirar estos cambios" }).click();
  await expect(page.getByText("Cambios retirados. La oferta sigue a la venta como estaba.").first()).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(form.getByLabel("Condiciones")).toHaveValue("Reserva previa por teléfono.");

  await ready(page, js);
  await form.getByLabel("Condiciones").fill("Sin reserva, cualquier día.");
  await form.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(notice).toContainText("Propuesto: Sin reserva, cualquier día.");
  await staff.goto("/admin");
  await ready(staff, js);
  const next = staff.getByRole("article", { name: renamed, exact: true });
  await next.getByRole("button", { name: "Rechazar con el motivo" }).click();
  await expect(next.getByText("Escribe el motivo.")).toBeVisible();
  await next.getByLabel(`Motivo para rechazar los cambios de «${renamed}»`).fill("Las condiciones deben decir los días y el horario.");
  await next.getByRole("button", { name: "Rechazar con el motivo" }).click();
  await expect(staff.getByText("Cambios rechazados: la oferta sigue como estaba.").first()).toBeVisible();
  await staffContext.close();

  await page.goto(`/socios/ofertas/${offer.uuid}`);
  const rejected = page.getByRole("region", { name: "Cambios rechazados" });
  await expect(rejected).toContainText("Las condiciones deben decir los días y el horario.");
  await expect(form.getByLabel("Condiciones")).toHaveValue("Reserva previa por teléfono.");
  await shop.goto(`/ofertas/${offer.uuid}/`);
  await expect(shop.getByText("Sin reserva, cualquier día.")).toHaveCount(0);
  await shopper.close();
});

test("a change waiting and one rejected, on the partner's pages and in staff's review, have no axe violations at 375 and 1280", async ({
  page,
  js,
  helper,
  loginAs,
}, testInfo) => {
  test.setTimeout(180_000);
  const tag = `${testInfo.project.name} ${Date.now().toString(36)}`;
  const waiting = await partnerOffer(page.request, `Paseo en velero ${tag}`, { active: true });
  await proposeChange(page.request, waiting.uuid, {
    title: `Paseo en velero al atardecer ${tag}`,
    description: "Dos horas de navegación.\nCon cava y fruta de temporada.",
    price_options: [
      { ...waiting.price_options[0], actual_price: "22.00" },
      { title: "Paseo para 2", actual_price: "40.00", regular_price: "80.00", available: 10, per_customer: null },
    ],
  });
  const rejected = await partnerOffer(page.request, `Paseo en barca ${tag}`, { active: true });
  const change = await proposeChange(page.request, rejected.uuid, { conditions: "Sin reserva." });
  await decideChange(page.request, change!.uuid, { status: "rejected", review_note: "Las condiciones deben decir los días y el horario." });

  const problems: Problem[] = [];
  const visitAll = async (paths: string[]) => {
    for (const path of paths) {
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await ready(page, js);
        await check(page, js, `${path} at ${viewport.width}`, problems, helper);
      }
    }
  };
  await loginAs(DEMO_PARTNER);
  await visitAll([`/socios/ofertas/${waiting.uuid}`, `/socios/ofertas/${rejected.uuid}`, "/socios/ofertas"]);
  await loginAs(DEMO_STAFF);
  await visitAll(["/admin"]);
  expect(problems, problems.join("\n")).toEqual([]);
});
