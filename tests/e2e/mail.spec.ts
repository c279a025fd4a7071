import { execFileSync } from "node:child_process";
import type { APIRequestContext, Page } from "@playwright/test";
import { pdfText } from "../support/pdf";
import { acceptCookies, expect, openCheckout, ready, test, uniqueEmail, type OfferSummary } from "./fixtures";
import type { ReceivedMail } from "../support/smtp";
import { E2E_INBOX, mailsTo, waitForMail } from "./mail";

async function offers(page: Page): Promise<OfferSummary[]> {
  const response = await page.request.get("/api/v0/public/offers/?page_size=100");
  return ((await response.json()) as { results: OfferSummary[] }).results.filter((o) => o.price_options.some((p) => p.available >= 20));
}

/** A purchase through the API, as another buyer would make it (the UI journey is tested once). */
async function buyThroughApi(request: APIRequestContext, offer: OfferSummary, email: string, consent = false) {
  const option = offer.price_options.find((p) => p.available >= 20)!;
  const validated = await request.post("/api/v0/sales/validate/", {
    data: {
      items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.actual_price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email, need_receipt: false, mail_agreement: consent, for_present: [] },
    },
  });
  const token = (await validated.json()).checkout_data.session_token as string;
  const { payment } = await (await request.post("/api/v0/sales/create/", { data: { session_token: token } })).json();
  await request.post(payment.redirect_url, { form: { action: "pay" }, maxRedirects: 0 });
  const captured = await request.post(`/api/v0/sales/capture/${payment.sale_id}/`, { data: { transaction_id: payment.transaction_id } });
  expect(captured.status()).toBe(200);
}

/** The first link in a mail's HTML whose path starts with `path`. */
function linkIn(html: string, path: string): string {
  const match = new RegExp(`href="(https?://[^"]*${path.replace(/[?]/g, "\\?")}[^"]*)"`).exec(html);
  if (!match) throw new Error(`sin enlace ${path} en el correo`);
  const url = new URL(match[1].replace(/&amp;/g, "&"));
  return `${url.pathname}${url.search}`;
}

test("purchase → the confirmation mail has the coupon codes and a PDF that contains them", async ({ page, js }) => {
  const offer = (await offers(page))[js ? 0 : 1];
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
  await page.locator(`input[type=radio][value="${offer.price_options.find((p) => p.available >= 20)!.uuid}"]`).check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("2");
  await page.getByRole("button", { name: "Añadir al carrito" }).click();
  await expect(page.getByText("Añadido al carrito.")).toBeVisible();
  await openCheckout(page, js);
  const email = uniqueEmail(`correo-${js ? "js" : "nojs"}`);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel(/He leído y acepto/).check();
  const consent = page.getByLabel(/Quiero recibir ofertas por correo/);
  await expect(consent).not.toBeChecked();
  await expect(page.getByRole("main").getByRole("link", { name: "Consentimiento comercial" })).toHaveAttribute("href", "/marketing-agreement");
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  const codes = await page.getByTestId("coupon-code").allTextContents();
  expect(codes).toHaveLength(2);

  const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  for (const code of codes) {
    expect(mail.text).toContain(code);
    expect(mail.html).toContain(code);
  }
  expect(mail.attachments).toHaveLength(1);
  const text = await pdfText(mail.attachments[0].content);
  for (const code of codes) expect(text).toContain(code);

  // The signed link shows the same coupons to a guest, with no cookie of the purchase.
  await page.context().clearCookies();
  await page.goto(linkIn(mail.html as string, "/order/coupons?"));
  await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();
  expect((await page.getByTestId("coupon-code").allTextContents()).sort()).toEqual([...codes].sort());
  await page.goto(linkIn(mail.html as string, "/order/coupons?").replace(/sig=[^&]+/, "sig=mala"));
  await expect(page.getByRole("heading", { name: "Este enlace no es válido" })).toBeVisible();
});

test("feedback links → thanks page → the rating shows on the offer once three buyers rated", async ({ page, js }) => {
  // An offer of its own per project, far down the list, so no other test rates it.
  // Unrated offers only: the demo catalogue seeds ratings on a few.
  const all = (await offers(page)).filter((o) => !o.rating);
  const offer = all[all.length - (js ? 1 : 2)];
  const buyers = [uniqueEmail("valora-a"), uniqueEmail("valora-b"), uniqueEmail("valora-c")];
  for (const buyer of buyers) await buyThroughApi(page.request, offer, buyer);

  await page.goto(`/ofertas/${offer.uuid}/`);
  await expect(page.locator(".offer-title-row ~ [data-testid=offer-rating]")).toHaveCount(0);

  for (const [i, buyer] of buyers.entries()) {
    // FEEDBACK_DELAY_DAYS=0 for the browser suite: the request is sent right after the purchase.
    const mail = await waitForMail(E2E_INBOX, buyer, { subject: /Valóralo/ });
    const link = linkIn(mail.html as string, "/feedback?rate=4");
    await page.goto(link);
    await ready(page, js);
    await expect(page.getByRole("heading", { name: "¡Gracias por tu valoración!" })).toBeVisible();
    await expect(page.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "4 estrellas de 5");
    if (i === 2) {
      // The last buyer changes their mind and adds a comment.
      await page.getByLabel("5 estrellas").check();
      await page.getByLabel("Comentario (opcional)").fill("Todo perfecto, repetiremos.");
      await page.getByRole("button", { name: "Guardar valoración" }).click();
      await expect(page.getByText("Hemos guardado tus cambios.")).toBeVisible();
      await expect(page.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "5 estrellas de 5");
      await expect(page.getByText("Todo perfecto, repetiremos.").first()).toBeVisible();
    }
  }
  await page.goto(`/ofertas/${offer.uuid}/`);
  const rating = page.locator(".offer-title-row ~ [data-testid=offer-rating]").first();
  await expect(rating).toContainText("4,3");
  await expect(rating).toContainText("(3 valoraciones de compras verificadas)");

  // Someone who did not buy it gets the route's own error page.
  await page.goto(`/feedback?rate=5&offer=${offer.uuid}&email=${encodeURIComponent(uniqueEmail("curioso"))}`);
  await expect(page.getByRole("heading", { name: "No hemos podido guardar tu valoración" })).toBeVisible();
  await page.goto(`/feedback?rate=9&offer=${offer.uuid}&email=a@b.es`);
  await expect(page.getByText("La valoración máxima es 5 estrellas.")).toBeVisible();
  await page.goto(`/feedback?rate=5`);
  await expect(page).toHaveURL(/\/$/);
});

/**
 * `npm run digest` as an operator runs it beside the E2E server: the server owns the embedded
 * database, so the command reaches it through the DATA_DIR control socket and the server queues
 * and sends the digest.
 */
function runDigest(): string {
  const out = execFileSync("node_modules/.bin/tsx", ["scripts/digest.ts"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "/tmp/ofertas-e2e-data", DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(out).toMatch(/en el servidor en marcha/);
  return out;
}

const DIGEST = /Nuevas ofertas/;

/** A header as sent (mailparser folds the List-* family into a structure of its own). */
function rawHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.toString("utf8").split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1].trim();
}

test("npm run digest → the digest's unsubscribe link → confirm → unsubscribed, and no second digest; the one-click POST needs no cookie", async ({ page, js, playwright }) => {
  const all = await offers(page);
  const email = uniqueEmail(`baja-${js ? "js" : "nojs"}`);
  const other = uniqueEmail(`one-click-${js ? "js" : "nojs"}`);
  const neverAsked = uniqueEmail(`sin-permiso-${js ? "js" : "nojs"}`);
  await buyThroughApi(page.request, all[2], email, true);
  await buyThroughApi(page.request, all[2], other, true);
  await buyThroughApi(page.request, all[2], neverAsked, false);

  runDigest();
  const digest = await waitForMail(E2E_INBOX, email, { subject: DIGEST });
  // Marketing carries RFC 8058's headers, with an https-or-this-server one-click URL.
  expect(rawHeader(digest, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
  expect(rawHeader(digest, "List-Unsubscribe")).toMatch(/^<http[^>]+\/api\/v0\/customer\/unsubscribe\/one-click\/\?[^>]+>$/);
  const pageLink = linkIn(digest.html as string, "/unsubscribe?");

  await page.goto(pageLink.replace(/sig=[^&]+/, "sig=falsa"));
  await expect(page.getByRole("heading", { name: "Este enlace no es válido" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ir a la página principal" })).toBeVisible();

  await page.goto(pageLink);
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "¿Quieres dejar de recibir nuestras ofertas?" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // Opening the page changed nothing: a scanner that follows the link does not unsubscribe anyone.
  await page.reload();
  await page.getByRole("button", { name: "Sí, darme de baja" }).click();
  await expect(page.getByRole("heading", { name: "Te has dado de baja" })).toBeVisible();
  // Twice is fine.
  await page.goto(pageLink);
  await page.getByRole("button", { name: "Sí, darme de baja" }).click();
  await expect(page.getByRole("heading", { name: "Te has dado de baja" })).toBeVisible();

  // RFC 8058 from a mail provider: the URL in the other buyer's List-Unsubscribe header, posted by a
  // fresh client with no cookies at all.
  const otherDigest = await waitForMail(E2E_INBOX, other, { subject: DIGEST });
  const header = /<([^>]+)>/.exec(rawHeader(otherDigest, "List-Unsubscribe") ?? "")?.[1];
  expect(header).toMatch(/\/api\/v0\/customer\/unsubscribe\/one-click\/\?/);
  const oneClick = new URL(header!);
  const provider = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const response = await provider.post(`${oneClick.pathname}${oneClick.search}`, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(response.status()).toBe(200);
  await provider.dispose();

  // A second digest reaches neither address (nor the buyer who never ticked the box).
  const before = [(await mailsTo(E2E_INBOX, email, DIGEST)).length, (await mailsTo(E2E_INBOX, other, DIGEST)).length];
  runDigest();
  const marker = uniqueEmail(`testigo-${js ? "js" : "nojs"}`);
  await buyThroughApi(page.request, all[2], marker, true);
  runDigest();
  // The subscribed witness gets the next run's digest; by then the run before it has been sent too.
  await waitForMail(E2E_INBOX, marker, { subject: DIGEST });
  expect([(await mailsTo(E2E_INBOX, email, DIGEST)).length, (await mailsTo(E2E_INBOX, other, DIGEST)).length]).toEqual(before);
  expect(await mailsTo(E2E_INBOX, neverAsked, DIGEST)).toHaveLength(0);

  // Already unsubscribed: the confirmation page still works and says so.
  await page.goto(linkIn(otherDigest.html as string, "/unsubscribe?"));
  await page.getByRole("button", { name: "Sí, darme de baja" }).click();
  await expect(page.getByRole("heading", { name: "Te has dado de baja" })).toBeVisible();
});
