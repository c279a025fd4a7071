/**
 * The consent gate against a server with every third party configured (the "third-party" project):
 * nothing optional loads before a choice or after «Rechazar todo»; after «Aceptar todo» the
 * analytics batches go to the EU endpoint with the funnel in order; withdrawing stops them and
 * removes their cookies. Third-party hosts are intercepted, never reached.
 */
import type { Page } from "@playwright/test";
import { expect, ready, roomyOffer, test, type OfferSummary } from "../support/fixtures";
import { ANALYTICS_SETTINGS } from "#rules/tracking";
import { hosts, mockVendors, type Vendors } from "./mock-vendors";

let vendors: Vendors;
/** Every script this shop's pages asked for (its own /assets chunks included). */
let scripts: string[];
test.beforeEach(async ({ context }) => {
  vendors = await mockVendors(context);
  scripts = [];
  context.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
});

/** The consented tools' entry (its script tag is added by the server only after consent) and Leaflet's chunk. */
const CONSENTED_CHUNK = /\/assets\/(third-party|map\.client)-[\w-]+\.js$/;
const consentedTag = (html: string) => /<script\b[^>]*\bsrc="\/assets\/third-party-[\w-]+\.js"/.test(html);

const banner = (page: Page) => page.getByRole("region", { name: "Tu privacidad" });

/** The choice is a document post: wait for it to be stored before moving on. */
async function choiceStored(page: Page) {
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === "ofertas_consent")).toBe(true);
}

async function browseAndShop(page: Page, js: boolean, offer: OfferSummary) {
  await page.goto("/");
  await ready(page, js);
  await page.goto("/ofertas/");
  // Straight to the map: an interactive map would load its tiles now.
  await page.goto(`/ofertas/${offer.uuid}/#map-title`);
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "Dónde está" })).toBeInViewport();
  await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
  await page.getByRole("button", { name: /Añadir al carrito|Actualizar carrito/ }).click();
  await expect(page.getByText(/Añadido al carrito|Carrito actualizado/).first()).toBeVisible();
  await page.goto("/checkout/");
  await ready(page, js);
}

async function storage(page: Page) {
  return page.evaluate(() => Object.keys(localStorage));
}

for (const js of [true, false]) {
  test.describe(js ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: js });

    test("before any choice and after «Rechazar todo», no request goes to a third-party host", async ({ page, context }) => {
      const offer = await roomyOffer(page);
      await browseAndShop(page, js, offer);
      await expect(banner(page)).toBeVisible();
      expect(hosts(vendors.requests)).toEqual([]);
      expect(consentedTag(await page.content())).toBe(false);

      // Rejecting is one button, the same size as accepting.
      const reject = banner(page).getByRole("button", { name: "Rechazar todo" });
      const accept = banner(page).getByRole("button", { name: "Aceptar todo" });
      const [r, a] = [await reject.boundingBox(), await accept.boundingBox()];
      expect(Math.abs(r!.width - a!.width)).toBeLessThan(2);
      expect(Math.abs(r!.height - a!.height)).toBeLessThan(2);
      await reject.click();
      await expect(banner(page)).toBeHidden();
      await choiceStored(page);

      await browseAndShop(page, js, offer);
      await page.waitForTimeout(js ? 1500 : 0);
      expect(hosts(vendors.requests)).toEqual([]);
      // Not even the shop's own code for them: no tag in the page, no chunk of theirs fetched.
      expect(consentedTag(await page.content())).toBe(false);
      expect(scripts.filter((u) => CONSENTED_CHUNK.test(u))).toEqual([]);
      if (js) expect(scripts.length).toBeGreaterThan(0);
      // Only the shop's own cookies, and no analytics identity in storage.
      const names = (await context.cookies()).map((c) => c.name).sort();
      expect(names.every((n) => ["__cart", "__session", "__checkout", "ofertas_consent"].includes(n))).toBe(true);
      if (js) expect(await storage(page)).toEqual([]);
      // The static map is ours: served by this shop, so the maps provider never sees the visitor.
      await page.goto(`/ofertas/${offer.uuid}/`);
      const map = page.getByRole("img", { name: /^Mapa de la ubicación/ });
      await expect(map).toHaveAttribute("src", `/mapa-estatico/${offer.uuid}`);
      expect(await map.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);
      await expect(page.getByRole("link", { name: "Cómo llegar" })).toHaveAttribute("href", /google\.com\/maps\/dir\/\?api=1&destination=/);
    });

    test("«Configurar» opens the switches and saves a per-category choice", async ({ page }) => {
      await page.goto("/");
      await ready(page, js);
      await banner(page).getByText("Configurar", { exact: true }).click();
      const analytics = banner(page).getByRole("switch", { name: "Analítica" });
      await expect(analytics).not.toBeChecked();
      await expect(banner(page).getByRole("switch", { name: /Necesarias/ })).toBeDisabled();
      await analytics.check();
      await banner(page).getByRole("button", { name: "Guardar mi elección" }).click();
      await expect(banner(page)).toBeHidden();
      await choiceStored(page);
      // The footer link reopens the choice at any time, showing the current one.
      await page.getByRole("link", { name: "Configurar cookies" }).click();
      await expect(page.getByRole("heading", { name: "Configurar cookies" })).toBeVisible();
      await expect(page.getByTestId("consent-status")).toContainText("analítica aceptada, marketing rechazado");
      await expect(page.getByRole("switch", { name: "Analítica" })).toBeChecked();
      await expect(page.getByRole("switch", { name: "Marketing" })).not.toBeChecked();
    });
  });
}

test("a page that loads the consented tools is rendered for its visitor with a nonce; after «Rechazar todo» it may be a kept page", async ({
  page,
  request,
}) => {
  const policy = (r: { headers(): Record<string, string> }) =>
    r
      .headers()
      ["content-security-policy"].split("; ")
      .find((d) => d.startsWith("script-src "))!;
  // No choice yet: the page every such visitor shares, its scripts allowed by hash; no tool's tag.
  await request.get("/");
  const kept = await request.get("/");
  expect(kept.headers()["age"]).toMatch(/^\d+$/);
  expect(policy(kept)).toMatch(/^script-src 'self' 'sha256-/);
  expect(policy(kept)).not.toContain("'nonce-");
  expect(consentedTag(await kept.text())).toBe(false);
  const choose = (intent: string) =>
    page.request.post("/consent", { form: { intent, redirectTo: "/" }, headers: { "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  // Accepted: the tag manager hands the page's nonce on to what it loads, so every page is the visitor's own.
  expect((await choose("accept-all")).status()).toBe(303);
  for (let i = 0; i < 2; i++) {
    const accepted = await page.request.get("/");
    expect(accepted.headers()["age"]).toBeUndefined();
    const nonce = /'nonce-([^']+)'/.exec(policy(accepted))?.[1];
    expect(nonce).toBeTruthy();
    const html = await accepted.text();
    expect(consentedTag(html)).toBe(true);
    expect(html).toContain(`nonce="${nonce}"`);
  }
  // Rejected: nothing of the tools, and the page is shared by everyone who made that choice.
  expect((await choose("reject-all")).status()).toBe(303);
  await page.request.get("/");
  const rejected = await page.request.get("/");
  expect(rejected.headers()["age"]).toMatch(/^\d+$/);
  expect(policy(rejected)).not.toContain("'nonce-");
  expect(consentedTag(await rejected.text())).toBe(false);
});

test.describe("without JavaScript, after «Aceptar todo»", () => {
  test.use({ javaScriptEnabled: false });

  test("the page names the consented tools' script, and the browser fetches nothing of it nor of any vendor", async ({ page }) => {
    const offer = await roomyOffer(page);
    await page.goto(`/ofertas/${offer.uuid}/#map-title`);
    expect(consentedTag(await page.content())).toBe(false);
    await banner(page).getByRole("button", { name: "Aceptar todo" }).click();
    await expect(banner(page)).toBeHidden();
    await choiceStored(page);
    // The server cannot know a browser runs no JavaScript: the tag is there, and inert.
    await page.goto(`/ofertas/${offer.uuid}/#map-title`);
    expect(consentedTag(await page.content())).toBe(true);
    await page.goto("/checkout/");
    await page.goto("/login");
    await page.waitForTimeout(500);
    // With JavaScript off nothing is fetched as a script, ours included: the pages' preloads are
    // inert until the script that starts the app adds them (defer-scripts.server.ts).
    expect(scripts.filter((u) => CONSENTED_CHUNK.test(u))).toEqual([]);
    expect(scripts).toEqual([]);
    expect(hosts(vendors.requests)).toEqual([]);
    // The offer page still shows where it is, from this shop only.
    await page.goto(`/ofertas/${offer.uuid}/`);
    await expect(page.getByRole("img", { name: /^Mapa de la ubicación/ })).toHaveAttribute("src", `/mapa-estatico/${offer.uuid}`);
  });
});

test.describe("with JavaScript and consent", () => {
  test.use({ javaScriptEnabled: true });
  test.setTimeout(90_000);

  test("after «Aceptar todo» the analytics batch goes to the EU endpoint and the funnel events arrive in order", async ({ page }) => {
    // The page's clock, so the flush interval is jumped rather than waited out.
    await page.clock.install();
    const offer = await roomyOffer(page);
    await page.goto("/");
    await ready(page, true);
    await banner(page).getByRole("button", { name: "Aceptar todo" }).click();
    await expect(banner(page)).toBeHidden();
    await choiceStored(page);

    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, true);
    // Started by the tag the server adds after consent, not by the page's own code.
    expect(consentedTag(await page.content())).toBe(true);
    expect(scripts.some((u) => /\/assets\/third-party-[\w-]+\.js$/.test(u))).toBe(true);
    await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
    await page.getByRole("button", { name: /Añadir al carrito|Actualizar carrito/ }).click();
    await expect(page.getByText(/Añadido al carrito|Carrito actualizado/).first()).toBeVisible();
    await page.goto("/checkout/");
    await ready(page, true);
    await page.getByLabel("Código promocional").fill("NOEXISTE");
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page.getByLabel("Código promocional")).toHaveAccessibleDescription("El código promocional «NOEXISTE» no existe.");
    await page.getByLabel("Código promocional").fill("BIENVENIDA10");
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page.getByText("Código «BIENVENIDA10» aplicado.")).toBeVisible();

    // Flushed every 10 s (spec section 9).
    await page.clock.fastForward(ANALYTICS_SETTINGS.flushIntervalMillis);
    const funnel = ["Offer Viewed", "Added To Cart", "Checkout Started", "Promo Code Refused", "Promo Code Applied"];
    const events = () => vendors.batches.flatMap((b) => b.body.events);
    await expect.poll(() => events().filter((e) => funnel.includes(e.event_type)).length, { timeout: 25_000 }).toBe(funnel.length);

    for (const batch of vendors.batches) {
      expect(new URL(batch.url).origin + new URL(batch.url).pathname).toBe("https://api.eu.amplitude.com/2/httpapi");
      expect(batch.body.api_key).toBe("e2e-analytics-key-0123456789");
      expect(batch.body.events.length).toBeLessThanOrEqual(200);
    }
    const all = events();
    expect(all.filter((e) => funnel.includes(e.event_type)).map((e) => e.event_type)).toEqual(funnel);
    const viewed = all.find((e) => e.event_type === "Offer Viewed")!;
    expect(viewed.event_properties).toMatchObject({ offer_uuid: offer.uuid, currency: "EUR" });
    expect(all.find((e) => e.event_type === "Added To Cart")!.event_properties).toMatchObject({ offer_uuid: offer.uuid, quantity: 1 });
    expect(all.find((e) => e.event_type === "Promo Code Applied")!.event_properties).toMatchObject({ discount_type: "percent" });
    // Page views are autocaptured, with the path only.
    expect(
      all.some(
        (e) => e.event_type === "[Amplitude] Page Viewed" && e.event_properties["[Amplitude] Page Path"] === `/ofertas/${offer.uuid}/`,
      ),
    ).toBe(true);
    // One device and session across pages, identity kept in localStorage (not a cookie).
    expect(new Set(all.map((e) => e.device_id)).size).toBe(1);
    expect(all.every((e) => typeof e.session_id === "number")).toBe(true);
    expect((await storage(page)).some((k) => k.startsWith("AMP_"))).toBe(true);
    expect((await page.context().cookies()).some((c) => c.name.startsWith("AMP_"))).toBe(false);
    // Never a promo code's text or an email.
    const sent = JSON.stringify(vendors.batches);
    expect(sent).not.toContain("BIENVENIDA10");
    expect(sent).not.toContain("NOEXISTE");
    expect(sent).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);

    // The tag manager got the container and the same funnel, in order.
    expect(vendors.requests.some((r) => r.url() === "https://www.googletagmanager.com/gtm.js?id=GTM-E2ETEST")).toBe(true);
    const dataLayer = await page.evaluate(() =>
      ((window as unknown as { dataLayer: { event?: string }[] }).dataLayer ?? []).map((e) => e.event),
    );
    expect(
      dataLayer.filter((e) => ["added_to_cart", "checkout_started", "promo_code_refused", "promo_code_applied"].includes(e ?? "")),
    ).toEqual(["checkout_started", "promo_code_refused", "promo_code_applied"]);
  });

  test("withdrawing consent stops the tools and removes their cookies and stored identity", async ({ page, context }) => {
    await page.clock.install();
    const offer = await roomyOffer(page);
    await page.goto("/");
    await ready(page, true);
    await banner(page).getByRole("button", { name: "Aceptar todo" }).click();
    await choiceStored(page);
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, true);
    await expect.poll(async () => (await context.cookies()).map((c) => c.name)).toContain("_ga");
    await expect.poll(async () => (await storage(page)).some((k) => k.startsWith("AMP_"))).toBe(true);
    await page.clock.fastForward(ANALYTICS_SETTINGS.flushIntervalMillis);
    await expect.poll(() => vendors.batches.length, { timeout: 25_000 }).toBeGreaterThan(0);

    await page.getByRole("link", { name: "Configurar cookies" }).click();
    await expect(page.getByRole("heading", { name: "Configurar cookies" })).toBeVisible();
    await page.getByRole("button", { name: "Rechazar todo" }).click();
    await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/$`));
    await ready(page, true);

    const names = (await context.cookies()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith("_ga") || n.startsWith("AMP_"))).toEqual([]);
    expect((await storage(page)).filter((k) => k.startsWith("AMP_"))).toEqual([]);

    const before = vendors.requests.length;
    await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
    await page.getByRole("button", { name: /Añadir al carrito|Actualizar carrito/ }).click();
    await expect(page.getByText(/Añadido al carrito|Carrito actualizado/).first()).toBeVisible();
    await page.goto("/checkout/");
    await ready(page, true);
    // Past the flush interval: a tool still running would send its batch now.
    await page.clock.fastForward(ANALYTICS_SETTINGS.flushIntervalMillis + 1_000);
    await page.waitForTimeout(1_000);
    expect(vendors.requests.slice(before).map((r) => r.url())).toEqual([]);
  });

  test("with marketing consent the interactive map loads its tiles when scrolled into view", async ({ page }) => {
    const offer = await roomyOffer(page);
    await page.goto("/consent");
    await page.getByRole("switch", { name: "Marketing" }).check();
    await page.getByRole("button", { name: "Guardar mi elección" }).click();
    await expect(page.getByText("Hemos guardado tu elección de cookies.").first()).toBeVisible();
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, true);
    expect(vendors.requests.filter((r) => r.url().includes("tiles.maps.example"))).toEqual([]);
    await page.goto(`/ofertas/${offer.uuid}/#map-title`);
    await expect(page.getByRole("region", { name: /^Mapa interactivo/ })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Mapa de la ubicación/ })).toHaveCount(0);
    await expect.poll(() => vendors.requests.filter((r) => r.url().startsWith("https://tiles.maps.example/")).length).toBeGreaterThan(0);
    await expect(page.getByRole("link", { name: "Cómo llegar" })).toBeVisible();
  });
});
