/**
 * An address never reaches a vendor (spec section 1's analytics, replay and tag manager), on the
 * server with every third party configured and every vendor mocked (mock-vendors.ts). With
 * analytics and marketing consent, a visitor opens the pages mail links lead to (with today's
 * address-and-signature links and with opaque tokens), searches for an address, and browses on
 * from those pages: no request to any vendor carries an address, a signature, an `email=` or a
 * token, in its URL, its headers or its body.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Page, Request } from "@playwright/test";
import { purchaseSignature, unsubscribeSignature } from "#platform/signatures.server";
import { NOSCRIPT_FIELD } from "#rules/captcha";
import { expect, ready, roomyOffer, test, uniqueEmail } from "../support/fixtures";
import { waitForMail } from "../support/mail";
import { E2E_DATA_DIR } from "../support/run-ports";
import { mockVendors, type Vendors } from "./mock-vendors";

let vendors: Vendors;
test.beforeEach(async ({ context }) => {
  vendors = await mockVendors(context);
});
test.use({ javaScriptEnabled: true });

// The third-party server's own cookie secret (playwright.config.ts: its DATA_DIR is ours + "-3p"),
// so the mail links below are the real, signed ones.
const secrets = [readFileSync(`${process.env.E2E_DATA_DIR ?? "/tmp/ofertas-e2e-data"}-3p/session-secret`, "utf8").trim()];
const ADDRESS = "cliente.privado@example.com";
const TOKEN = "tok_Zq81xK2mVb7PpL4sW9dE";

async function acceptAll(page: Page) {
  await page.goto("/");
  await ready(page, true);
  await page.getByRole("region", { name: "Tu privacidad" }).getByRole("button", { name: "Aceptar todo" }).click();
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === "ofertas_consent")).toBe(true);
}

/** A request as the vendor receives it: its URL, its headers and its body, unzipped. */
async function asSent(request: Request): Promise<{ url: string; headers: string; body: string }> {
  const raw = request.postDataBuffer() ?? Buffer.alloc(0);
  const gzipped = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b;
  const headers = Object.entries(await request.allHeaders())
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return { url: request.url(), headers, body: (gzipped ? gunzipSync(raw) : raw).toString("utf8") };
}

const replayUploads = () => vendors.requests.filter((r) => new URL(r.url()).hostname === "api-sr.eu.amplitude.com");

/**
 * Lets the replay record a little (it starts a moment after the page), then makes it send what it
 * has as a page does when it closes: by beacon. A beacon sent while a page unloads escapes the
 * browser's request interception, so the page is told it is hiding while it is still there.
 */
async function recordThenLeave(page: Page) {
  await page.waitForTimeout(3_000);
  await page.mouse.move(200, 300);
  await page.mouse.wheel(0, 600);
  await page.waitForTimeout(1_500);
  const before = replayUploads().length;
  await page.evaluate(() => window.dispatchEvent(new Event("pagehide")));
  await expect.poll(() => replayUploads().length, { timeout: 15_000 }).toBeGreaterThan(before);
}

const forbidden = (text: string) =>
  [
    [/[\w.+-]+(@|%40|%2540)[\w-]+\.[a-z]/i, "an address"],
    [/sig=/, "a signature"],
    [/email=/, "email="],
    [new RegExp(TOKEN), "the token"],
    [/cliente\.privado/, "the address's name"],
  ].flatMap(([re, what]) => ((re as RegExp).test(text) ? [what as string] : []));

test("with analytics consent, no vendor request carries an address, a signature or a token", async ({ page }) => {
  test.setTimeout(150_000);
  const offer = await roomyOffer(page);
  await acceptAll(page);
  const email = encodeURIComponent(ADDRESS);
  const sale = "7a1c2f0e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
  const mailLinks = [
    `/unsubscribe?email=${email}&sig=${unsubscribeSignature(secrets, ADDRESS)}`,
    `/feedback?rate=5&offer=${offer.uuid}&email=${email}`,
    `/login/registro?paso=activar&email=${email}`,
    `/login/recuperar?paso=codigo&email=${email}`,
    `/order/coupons?sale=${sale}&sig=${purchaseSignature(secrets, sale)}`,
    // Links that carry an opaque token instead: untracked by their route, whatever it is called.
    `/unsubscribe?token=${TOKEN}`,
    `/feedback?token=${TOKEN}&rate=4`,
    `/login?token=${TOKEN}`,
  ];

  // A tracked page first: analytics, replay and the tag manager are running.
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, true);
  // A search for an address, then on to another page from it (its URL becomes the previous page).
  await page.goto(`/buscar?q=${email}`);
  await ready(page, true);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "ofertas, página principal" }).click();
  await expect(page).toHaveURL(/\/$/);
  await ready(page, true);
  // Each mail link opened as from a mail, then on to the shop by a link and by a new document.
  const category = page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Restaurantes" });
  for (const link of mailLinks) {
    await page.goto(link);
    await ready(page, true);
    // On by the app (a client-side navigation), back, and on by a new document.
    await category.click();
    await expect(page).toHaveURL(/\/ofertas\/category\/restaurants\/$/);
    await page.goBack();
    await ready(page, true);
    await page.getByRole("link", { name: "ofertas, página principal" }).click();
    await expect(page).toHaveURL(/\/$/);
    await ready(page, true);
  }
  // The search for an address and an offer, each recorded a while and left: their recordings are
  // sent; then the analytics batch, flushed every 10 s.
  await page.goto(`/buscar?q=${email}`);
  await ready(page, true);
  await recordThenLeave(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, true);
  await recordThenLeave(page);
  await page.waitForTimeout(10_000);
  const dataLayer = await page.evaluate(() => JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []));

  // Not vacuous: events, replay uploads and the tag manager's pushes were all made.
  const events = vendors.batches.flatMap((b) => b.body.events);
  expect(events.length).toBeGreaterThan(5);

  const problems: string[] = [];
  for (const request of vendors.requests) {
    const sent = await asSent(request);
    // In the URL and the headers not even an «@» (the replay's copy of a page has CSS at-rules in its body).
    if (/@|%40/.test(sent.url) || /@|%40/.test(sent.headers)) problems.push(`${sent.url}: «@» in its URL or headers`);
    for (const what of forbidden(`${sent.url}\n${sent.headers}\n${sent.body}`)) problems.push(`${sent.url}: ${what}`);
  }
  expect(problems).toEqual([]);
  expect(dataLayer).toContain("ofertas.page");
  // The analytics events: not one «@», and not one from a page a mail leads to.
  expect(JSON.stringify(events)).not.toMatch(/@|%40/);
  const paths = events.map((e) => e.event_properties?.page_path as string | undefined);
  expect(paths.filter((p) => p && /^\/(unsubscribe|feedback|login|order\/coupons)/.test(p))).toEqual([]);
  expect(paths).toContain(`/ofertas/${offer.uuid}/`);
  // The SDK's own URL properties are gone; ours are paths.
  expect(events.some((e) => "[Amplitude] Previous Page Location" in (e.event_properties ?? {}))).toBe(false);
  const previous = events.map((e) => e.event_properties?.previous_page_path).filter((p): p is string => typeof p === "string");
  expect(previous.length).toBeGreaterThan(0);
  for (const p of previous) expect(p).toMatch(/^\/[^?#@]*$/);
  expect(forbidden(dataLayer)).toEqual([]);
  expect(dataLayer).not.toMatch(/@|%40/);
});

test("session replay: its remote configuration is asked once per page, and its workers start under the CSP", async ({ page }) => {
  test.setTimeout(90_000);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (create|load|execute)/i.test(m.text())) violations.push(m.text());
  });
  const workers: string[] = [];
  page.on("worker", (w) => workers.push(w.url()));
  await acceptAll(page);
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, true);
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const configs = () => vendors.requests.filter((r) => new URL(r.url()).hostname === "sr-client-cfg.eu.amplitude.com").length;
  await page.waitForTimeout(2_000); // this page's own request made
  const before = configs();
  await page.reload();
  await ready(page, true);
  await recordThenLeave(page);
  await page.getByRole("link", { name: "ofertas, página principal" }).click();
  await ready(page, true);
  await expect.poll(() => workers.some((u) => u.startsWith("blob:"))).toBe(true);
  expect(violations).toEqual([]);
  // One configuration request a page (the reloaded offer's, then the home page's), answered at once: no retry.
  await expect.poll(() => configs() - before).toBe(2);
  await page.waitForTimeout(2_000);
  expect(configs() - before).toBe(2);
});

test("session replay's remote configuration: a failing server is asked 3 times, 1 s then 2 s apart", async ({ page }) => {
  test.setTimeout(90_000);
  await acceptAll(page);
  // Nothing of the first page's own configuration request left in flight.
  await page.goto("about:blank");
  const asked: number[] = [];
  await page.route("https://sr-client-cfg.eu.amplitude.com/**", (route) => {
    asked.push(Date.now());
    return route.fulfill({ status: 503, body: "" });
  });
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, true);
  await expect.poll(() => asked.length, { timeout: 20_000 }).toBe(3);
  await page.waitForTimeout(4_000);
  expect(asked).toHaveLength(3);
  const [first, second, third] = asked;
  expect(second - first).toBeGreaterThanOrEqual(950);
  expect(third - second).toBeGreaterThanOrEqual(1_950);
});

test("session replay never records the login page: not on the way to it, nor after a code login back to the shop", async ({ page }) => {
  test.setTimeout(150_000);
  const email = uniqueEmail("grabacion");
  // The widget cannot be checked by this server (captcha.spec.ts): blocked, so the code is asked
  // for as a page whose scripts had not run asks for it, which the server vouches for.
  await page.route("https://challenges.cloudflare.com/**", (route) => route.abort("blockedbyclient"));
  await acceptAll(page);
  await ready(page, true);
  // The home page records a while.
  await page.waitForTimeout(3_000);
  await page.mouse.move(200, 300);

  // To the login page by the app, and through its two steps.
  await page.getByRole("link", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2F$/);
  await expect(page.getByText("Te enviaremos un código de 6 cifras")).toBeVisible();
  await page.getByLabel("Correo electrónico").fill(email);
  await page.locator("form", { has: page.getByRole("button", { name: "Enviar código" }) }).evaluate((form, name) => {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = name;
    field.value = "1";
    form.append(field);
  }, NOSCRIPT_FIELD);
  await page.mouse.move(220, 320);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await expect(page.getByText("Te hemos enviado un código")).toBeVisible();
  await page.waitForTimeout(3_000);
  await page.mouse.move(240, 340);
  const mail = await waitForMail(`${E2E_DATA_DIR}-3p/mail`, email, {
    subject: /código para entrar/,
  });
  const code = /\b(\d{6})\b/.exec(mail.text ?? "")?.[1];
  await page.getByLabel("Código de 6 cifras").fill(code!);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();

  // Back on the home page, logged in: it records again, and sends what it has.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: `Mi cuenta (sesión iniciada como ${email})` })).toBeAttached();
  const before = replayUploads().length;
  await recordThenLeave(page);

  const bodies = await Promise.all(replayUploads().map(async (r) => (await asSent(r)).body));
  // Not vacuous: the home page was recorded before the login and after it.
  expect(bodies.filter((b) => b.includes("Ofertas irresistibles")).length).toBeGreaterThan(0);
  expect(bodies.slice(before).some((b) => b.includes("Ofertas irresistibles"))).toBe(true);
  const loginPage = [
    "Te enviaremos un código de 6 cifras",
    "Te hemos enviado un código",
    "Guarda tus favoritos y consulta tus pedidos",
    "Crear una cuenta con contraseña",
  ];
  expect(loginPage.filter((text) => bodies.some((b) => b.includes(text)))).toEqual([]);
});
