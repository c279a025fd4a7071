import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { unsubscribeSignature } from "#platform/signatures.server";
import type { APIRequestContext, Page } from "@playwright/test";
import { pdfText } from "../support/pdf";
import { check, test as axeTest, VIEWPORTS, type Problem } from "./support/axe";
import { acceptCookies, expect, openCheckout, ready, test, uniqueEmail, type OfferSummary } from "./support/fixtures";
import type { ReceivedMail } from "../support/smtp";
import { E2E_INBOX, mailsTo, waitForMail } from "./support/mail";
import { E2E_DATA_DIR } from "./support/run-ports";

async function offers(page: Page): Promise<OfferSummary[]> {
  const response = await page.request.get("/api/v0/public/offers/?page_size=100");
  const listed = ((await response.json()) as { results: OfferSummary[] }).results.filter((o) =>
    o.price_options.some((p) => p.available >= 20),
  );
  // An offer whose sale ended (another spec ends one) may stay in a cached listing for a while; its page says so at once.
  const onSale = await Promise.all(
    listed.map(async (o) => ((await (await page.request.get(`/api/v0/public/offers/${o.uuid}/`)).json()) as { on_sale: boolean }).on_sale),
  );
  return listed.filter((_, i) => onSale[i]);
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
  const created = await request.post("/api/v0/sales/create/", { data: { session_token: token } });
  expect(created.status(), await created.text()).toBe(201);
  const { payment } = await created.json();
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
  await expect(page.getByRole("main").getByRole("link", { name: "Consentimiento comercial" })).toHaveAttribute(
    "href",
    "/marketing-agreement",
  );
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

/** The star links' token and what the API holds for it, read as the link's holder. */
async function ratingOf(request: APIRequestContext, link: string) {
  const t = new URL(link, "http://x").searchParams.get("t")!;
  const mine = await request.get(`/api/v0/public/offers/feedback/mine/?${new URLSearchParams({ t })}`);
  expect(mine.status()).toBe(200);
  return ((await mine.json()) as { feedback: { feedback_stars: number } | null }).feedback;
}

test("feedback links → a person's click saves, a scanner only asks → the rating shows on the offer once three buyers rated", async ({
  page,
  js,
  browser,
  playwright,
}) => {
  // An offer of its own per project, far down the list, so no other test rates it.
  // Unrated offers only: the demo catalogue seeds ratings on a few.
  const all = (await offers(page)).filter((o) => !o.rating);
  const offer = all[all.length - (js ? 1 : 2)];
  const buyers = [uniqueEmail("valora-a"), uniqueEmail("valora-b"), uniqueEmail("valora-c")];
  for (const buyer of buyers) await buyThroughApi(page.request, offer, buyer);
  // FEEDBACK_DELAY_DAYS=0 for the browser suite: the request is sent right after the purchase.
  const links = await Promise.all(
    buyers.map(async (buyer) => linkIn((await waitForMail(E2E_INBOX, buyer, { subject: /Valóralo/ })).html as string, "/feedback?rate=4&")),
  );
  for (const link of links) expect(link).not.toMatch(/email=|%40|@/);

  // A mail scanner fetches every star link of the first mail: each answers the question, none saves.
  const scanner = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  for (const n of [1, 2, 3, 4, 5]) {
    const answer = await scanner.get(links[0].replace("rate=4", `rate=${n}`));
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toContain("Enviar valoración");
  }
  await scanner.dispose();
  expect(await ratingOf(page.request, links[0])).toBeNull();

  // The buyer's own click on four stars saves on load. The page's URL holds the token: it is
  // never passed on as a referrer.
  await page.goto(links[0]);
  await ready(page, js);
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "strict-origin");
  await expect(page.getByRole("heading", { name: "¡Gracias por tu valoración!" })).toBeVisible();
  await expect(page.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "4 estrellas de 5");
  expect(await ratingOf(page.request, links[0])).toMatchObject({ feedback_stars: 4 });

  // A browser that opens the link as a prefetch (a link preview, a scanner with a browser) gets the
  // same page with those stars chosen, and the button saves.
  const previewing = await browser.newContext({
    javaScriptEnabled: js,
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "Sec-Purpose": "prefetch" },
  });
  const preview = await previewing.newPage();
  await preview.goto(links[1]);
  await ready(preview, js);
  await expect(preview.getByRole("heading", { name: "Valora tu compra" })).toBeVisible();
  await expect(preview.getByLabel("4 estrellas")).toBeChecked();
  expect(await ratingOf(page.request, links[1])).toBeNull();
  await preview.getByRole("button", { name: "Enviar valoración" }).click();
  await expect(preview.getByRole("heading", { name: "¡Gracias por tu valoración!" })).toBeVisible();
  await expect(preview.getByText("Hemos guardado tu valoración.")).toBeVisible();
  await expect(preview.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "4 estrellas de 5");
  await previewing.close();

  // The last buyer changes their mind and adds a comment.
  await page.goto(links[2]);
  await ready(page, js);
  await page.getByLabel("5 estrellas").check();
  await page.getByLabel("Comentario (opcional)").fill("Todo perfecto, repetiremos.");
  await page.getByRole("button", { name: "Guardar valoración" }).click();
  await expect(page.getByText("Hemos guardado tu valoración.")).toBeVisible();
  await expect(page.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "5 estrellas de 5");
  await expect(page.getByText("Todo perfecto, repetiremos.").first()).toBeVisible();
  expect(await ratingOf(page.request, links[2])).toMatchObject({ feedback_stars: 5, comment: "Todo perfecto, repetiremos." });
  // The next page (its document, or its data with JavaScript) learns only the origin, not the link.
  const next = page.waitForRequest((r) => r.url().includes(`/ofertas/${offer.uuid}`));
  await page.getByRole("link", { name: "Ver la oferta" }).click();
  const referer = (await (await next).allHeaders()).referer;
  expect(referer).toBe(`${new URL(page.url()).origin}/`);
  await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/$`));

  await page.goto(`/ofertas/${offer.uuid}/`);
  const rating = page.locator(".offer-title-row ~ [data-testid=offer-rating]").first();
  await expect(rating).toContainText("4,3");
  await expect(rating).toContainText("(3 valoraciones de compras verificadas)");

  // A link without its token (as mails had before) rates for nobody but the logged-in buyer.
  await page.goto(`/feedback?rate=1&offer=${offer.uuid}&email=${encodeURIComponent(buyers[0])}`);
  await expect(page.getByRole("heading", { name: "No hemos podido guardar tu valoración" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Entrar en mi cuenta para valorarla" })).toHaveAttribute(
    "href",
    /^\/login\?redirectTo=%2Ffeedback%3Frate%3D1%26offer%3D[0-9a-f-]+$/,
  );
  await page.goto(links[0].replace(/t=[^&]+/, "t=AXNvbG8tdW4tZW5zYXlv"));
  await expect(page.getByRole("heading", { name: "No hemos podido guardar tu valoración" })).toBeVisible();
  expect(await ratingOf(page.request, links[0])).toMatchObject({ feedback_stars: 4 });
  await page.goto(links[0].replace("rate=4", "rate=9"));
  await expect(page.getByText("La valoración máxima es 5 estrellas.")).toBeVisible();
  await page.goto(`/feedback?rate=5`);
  await expect(page).toHaveURL(/\/$/);
});

test("a logged-in buyer rates from a link without a token (Mis pedidos, older mails): asked first, saved on the button", async ({
  page,
  js,
  newCustomer,
  loginAs,
}) => {
  const customer = await newCustomer();
  const offer = (await offers(page))[js ? 3 : 4];
  await buyThroughApi(page.request, offer, customer.email);
  await loginAs(customer);
  await page.goto(`/feedback?rate=2&offer=${offer.uuid}&email=${encodeURIComponent(customer.email)}`);
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "Valora tu compra" })).toBeVisible();
  await expect(page.getByLabel("2 estrellas")).toBeChecked();
  await page.getByLabel("3 estrellas").check();
  await page.getByRole("button", { name: "Enviar valoración" }).click();
  await expect(page.getByText("Hemos guardado tu valoración.")).toBeVisible();
  await expect(page.getByTestId("feedback-stars").getByRole("img")).toHaveAttribute("aria-label", "3 estrellas de 5");
  await expect(page).toHaveURL(new RegExp(`/feedback\\?rate=3&offer=${offer.uuid}&guardado=1$`));
});

/**
 * `npm run digest` as an operator runs it beside the E2E server: the server owns the embedded
 * database, so the command reaches it through the DATA_DIR control socket and the server queues
 * and sends the digest.
 */
function runDigest(): string {
  const out = execFileSync("node_modules/.bin/tsx", ["scripts/digest.ts"], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(out).toMatch(/en el servidor en marcha/);
  return out;
}

const DIGEST = /Nuevas ofertas/;

/** A header as sent (mailparser folds the List-* family into a structure of its own). */
function rawHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw
    .toString("utf8")
    .split(/\r?\n\r?\n/)[0]
    .replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1].trim();
}

test("npm run digest → the digest's unsubscribe link → confirm → unsubscribed, and no second digest; the one-click POST needs no cookie", async ({
  page,
  js,
  playwright,
}) => {
  // Three runs of `npm run digest`, each a process of its own that starts TypeScript.
  test.setTimeout(120_000);
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
  expect(rawHeader(digest, "List-Unsubscribe")).toMatch(/^<http[^>]+\/api\/v0\/customer\/unsubscribe\/one-click\/\?t=[A-Za-z0-9_-]+>$/);
  const pageLink = linkIn(digest.html as string, "/unsubscribe?");
  expect(pageLink).toMatch(/^\/unsubscribe\?t=[A-Za-z0-9_-]+$/);

  await page.goto(pageLink.replace(/t=[^&]+/, "t=AWZhbHNv"));
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

test("an unsubscribe link from a mail sent before link tokens (email and sig) still works, and the address leaves the URL", async ({
  page,
  js,
}) => {
  const email = uniqueEmail(`baja-antigua-${js ? "js" : "nojs"}`);
  await buyThroughApi(page.request, (await offers(page))[2], email, true);
  // The signature those mails carried: HMAC under the server's session secret (its data dir's, here).
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR ?? "/tmp/ofertas-e2e-data", "session-secret"), "utf8").trim();
  await page.goto(`/unsubscribe?${new URLSearchParams({ email, sig: unsubscribeSignature([secret], email) })}`);
  await ready(page, js);
  await expect(page).toHaveURL(/\/unsubscribe\?t=[A-Za-z0-9_-]+$/);
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: "Sí, darme de baja" }).click();
  await expect(page.getByRole("heading", { name: "Te has dado de baja" })).toBeVisible();
  const forged = await page.goto(
    `/unsubscribe?${new URLSearchParams({ email, sig: unsubscribeSignature(["otro-secreto-que-no-es-el-nuestro"], email) })}`,
  );
  expect(forged?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Este enlace no es válido" })).toBeVisible();
  await page.goto("/unsubscribe?email=solo%40correo.es");
  await expect(page).toHaveURL(/\/$/);
});

axeTest(
  "the pages mail links open (rating: asked and saved; unsubscribe: asked and done) have no axe violations at 375 and 1280",
  async ({ browser, page, js, helper }) => {
    axeTest.setTimeout(120_000);
    const problems: Problem[] = [];
    const checkBoth = async (on: Page, name: string) => {
      for (const viewport of VIEWPORTS) {
        await on.setViewportSize(viewport);
        await check(on, js, `${name} at ${viewport.width}`, problems, helper);
      }
    };
    const buyer = uniqueEmail(`axe-enlaces-${js ? "js" : "nojs"}`);
    await buyThroughApi(page.request, (await offers(page))[5], buyer, true);
    const link = linkIn((await waitForMail(E2E_INBOX, buyer, { subject: /Valóralo/ })).html as string, "/feedback?rate=3&");
    // As a link preview opens it, so the question is shown before anything is saved.
    const previewing = await browser.newContext({
      javaScriptEnabled: js,
      baseURL: axeTest.info().project.use.baseURL,
      extraHTTPHeaders: { "Sec-Purpose": "prefetch" },
    });
    const preview = await previewing.newPage();
    await preview.goto(link);
    await ready(preview, js);
    await checkBoth(preview, "/feedback, asked");
    await preview.getByRole("button", { name: "Enviar valoración" }).click();
    await expect(preview.getByText("Hemos guardado tu valoración.")).toBeVisible();
    await checkBoth(preview, "/feedback, saved");
    await previewing.close();

    const secret = readFileSync(path.join(process.env.E2E_DATA_DIR ?? "/tmp/ofertas-e2e-data", "session-secret"), "utf8").trim();
    await page.goto(`/unsubscribe?${new URLSearchParams({ email: buyer, sig: unsubscribeSignature([secret], buyer) })}`);
    await ready(page, js);
    await checkBoth(page, "/unsubscribe, asked");
    await page.getByRole("button", { name: "Sí, darme de baja" }).click();
    await expect(page.getByRole("heading", { name: "Te has dado de baja" })).toBeVisible();
    await checkBoth(page, "/unsubscribe, done");
    expect(problems, problems.join("\n")).toEqual([]);
  },
);
