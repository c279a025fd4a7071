import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { phonePhoto } from "#tests/support/photos";
import { expect, ready, test } from "./support/fixtures";
import { partnerOffer } from "./support/partner-fixtures";

/**
 * A partner's picture as a phone takes it (2–5 MB) goes up from the offer's page, with and without
 * JavaScript; one over 5 MB is refused with a message on the same page.
 */
test("a phone's photo of several MB uploads from the offer page; one over 5 MB is refused with a message", async ({
  page,
  js,
  loginAs,
}, testInfo) => {
  test.setTimeout(90_000);
  const offer = await partnerOffer(page.request, `Ruta en kayak ${testInfo.project.name} ${Date.now().toString(36)}`, { active: false });
  await loginAs(DEMO_PARTNER);
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);

  const photo = await phonePhoto();
  expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
  await page
    .getByLabel("Imagen (JPEG, PNG o WebP, hasta 5 MB)")
    .setInputFiles({ name: "IMG_2041.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByLabel("Descripción de la imagen").fill("Kayaks al atardecer");
  await page.getByRole("button", { name: "Subir imagen" }).click();
  await expect(page.getByText("Imagen subida.").first()).toBeVisible({ timeout: 30_000 });
  const shown = page.locator(".image-list").getByRole("img", { name: "Kayaks al atardecer" });
  await expect(shown).toBeVisible();
  await expect(page.locator(".image-list")).toContainText("Portada");
  // The picture is served, as WebP at the shop's size.
  const file = await page.request.get((await shown.getAttribute("src"))!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("image/webp");

  // Over the limit: said on the page, nothing else changes.
  await ready(page, js);
  const tooBig = Buffer.concat([photo, Buffer.alloc(5 * 1024 * 1024 - photo.length + 200_000, 1)]);
  await page
    .getByLabel("Imagen (JPEG, PNG o WebP, hasta 5 MB)")
    .setInputFiles({ name: "IMG_2042.jpg", mimeType: "image/jpeg", buffer: tooBig });
  await page.getByRole("button", { name: "Subir imagen" }).click();
  await expect(page.getByText("La imagen pesa más de 5 MB. Redúcela y vuelve a subirla.").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(".image-list li")).toHaveCount(1);
});
