import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO_PARTNER, DEMO_STAFF } from "#api/db/demo-accounts";
import { APPROVE_WITHOUT_PHOTO } from "#rules/images";
import { expect, ready, test } from "./support/fixtures";
import { partnerOffer, removeOfferPhotos } from "./support/partner-fixtures";

async function partnerHeaders(request: APIRequestContext) {
  const login = await request.post("/api/v0/auth/jwt/create/", { data: { email: DEMO_PARTNER.email, password: DEMO_PARTNER.password } });
  expect(login.status()).toBe(200);
  return { Authorization: `JWT ${((await login.json()) as { access: string }).access}` };
}

/** An offer sent for review with a cover, whose partner then took the photo away. */
async function pendingWithoutPhoto(request: APIRequestContext, title: string): Promise<string> {
  const offer = await partnerOffer(request, title, { active: false });
  const cover = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 140 } } })
    .png()
    .toBuffer();
  const uploaded = await request.post("/api/v0/offers/images/", {
    headers: await partnerHeaders(request),
    multipart: { offer: offer.uuid, cover: "true", alt: "Kayaks", image: { name: "portada.png", mimeType: "image/png", buffer: cover } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const sent = await request.patch(`/api/v0/offers/${offer.uuid}/`, {
    headers: await partnerHeaders(request),
    data: { status: "pending_review" },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await removeOfferPhotos(request, offer.uuid);
  return offer.uuid;
}

/** The queue's page that holds the offer (oldest first, so a busy queue may have it further on). */
async function openQueueAt(page: Page, js: boolean, title: string) {
  for (let n = 1; n <= 20; n++) {
    await page.goto(`/admin?page=${n}`);
    await ready(page, js);
    if (await page.getByRole("heading", { name: title }).count()) return;
    if (!(await page.getByRole("article").count())) break;
  }
  throw new Error(`«${title}» is not in the review queue`);
}

test("the review queue says «Falta una foto real» before «Aprobar», and approving such an offer is refused in Spanish", async ({
  page,
  js,
  loginAs,
}, testInfo) => {
  test.setTimeout(90_000);
  const title = `Ruta sin foto ${testInfo.project.name} ${Date.now().toString(36)}`;
  const uuid = await pendingWithoutPhoto(page.request, title);
  await loginAs(DEMO_STAFF);
  await openQueueAt(page, js, title);

  const card = page.getByRole("article", { name: title });
  const missing = card.getByText("Falta una foto real", { exact: false });
  const approve = card.getByRole("button", { name: `Aprobar «${title}»` });
  await expect(missing).toBeVisible();
  await expect(approve).toHaveAccessibleDescription(/Falta una foto real/);
  expect((await missing.boundingBox())!.y).toBeLessThan((await approve.boundingBox())!.y);

  await approve.click();
  await expect(page.getByText(APPROVE_WITHOUT_PHOTO).first()).toBeVisible();
  await ready(page, js);
  await expect(page.getByRole("article", { name: title })).toBeVisible();
  expect((await page.request.get(`/api/v0/public/offers/${uuid}/`)).status()).toBe(404);
});
