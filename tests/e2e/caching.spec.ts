import { expectLoggedInAs } from "./support/auth";
import { addToCart, expect, ready, roomyOffer, test } from "./support/fixtures";

// What a CDN may keep: anonymous listing pages, shared for a minute; anything a visitor
// with a cookie sees, the checkout and one offer's live stock, never.
test(
  "anonymous listings are shareable for a minute; pages for a visitor with cookies are private",
  { tag: "@js-covers" },
  async ({ request }) => {
    for (const path of ["/", "/ofertas/", "/ofertas/category/restaurants", "/contacts"]) {
      const anonymous = await request.get(path, { headers: { cookie: "" } });
      expect(anonymous.status()).toBe(200);
      expect(anonymous.headers()["cache-control"], path).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
      expect(anonymous.headers()["vary"], path).toMatch(/Cookie/);
      const head = await request.head(path, { headers: { cookie: "" } });
      expect(head.headers()["cache-control"], `HEAD ${path}`).toBe(anonymous.headers()["cache-control"]);
      // A cart, a login or a message all live in cookies: any cookie makes the page personal.
      const personal = await request.get(path, { headers: { cookie: "__session=x; __cart=y" } });
      expect(personal.headers()["cache-control"], path).toBe("private, no-cache");
    }
    expect((await request.get("/checkout/", { headers: { cookie: "" } })).headers()["cache-control"]).toMatch(/private|no-store/);
    const offers = await (await request.get("/api/v0/public/offers/?page_size=1")).json();
    const offer = await request.get(`/ofertas/${offers.results[0].uuid}/`, { headers: { cookie: "" } });
    expect(offer.headers()["cache-control"]).toBe("no-store");
  },
);

test("a browser that put something in its cart gets private pages", { tag: "@js-covers" }, async ({ page }) => {
  await page.goto("/");
  const first = await page.request.get("/");
  expect(first.headers()["cache-control"]).toMatch(/^public/);
  await page.context().addCookies([{ name: "__cart", value: "anything", url: page.url() }]);
  expect((await page.request.get("/")).headers()["cache-control"]).toBe("private, no-cache");
});

test("static assets come precompressed: brotli, gzip or plain as the browser asks", { tag: "@js-covers" }, async ({ request }) => {
  const html = await (await request.get("/")).text();
  // The layout chunk: React, Remix and every page's shared code (entry.client is too small to compress).
  const script = html.match(/\/assets\/layout-[\w-]+\.js/)?.[0];
  expect(script).toBeTruthy();
  const plain = await request.get(script!, { headers: { "accept-encoding": "identity" } });
  const br = await request.get(script!, { headers: { "accept-encoding": "br, gzip" } });
  const gz = await request.get(script!, { headers: { "accept-encoding": "gzip" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  expect(br.headers()["content-encoding"]).toBe("br");
  expect(gz.headers()["content-encoding"]).toBe("gzip");
  for (const r of [br, gz]) {
    expect(r.headers()["content-type"]).toMatch(/javascript/);
    expect(r.headers()["cache-control"]).toMatch(/immutable/);
    expect(await r.text()).toBe(await plain.text()); // the client decodes to the same bytes
  }
  // The storefront asks its own API for identity over loopback; the API then sends plain JSON.
  const api = await request.get("/api/v0/public/offers/?page_size=1", { headers: { "accept-encoding": "identity" } });
  expect(api.headers()["content-encoding"]).toBeUndefined();
});

test(
  "a page with nothing deferred leaves whole: gzipped once with a Content-Length, or plain when gzip is refused",
  { tag: "@js-covers" },
  async ({ request }) => {
    const gz = await request.get("/", { headers: { "accept-encoding": "gzip" } });
    const plain = await request.get("/", { headers: { "accept-encoding": "gzip;q=0, identity" } });
    expect(gz.headers()["content-encoding"]).toBe("gzip");
    expect(gz.headers()["transfer-encoding"]).toBeUndefined();
    expect(Number(gz.headers()["content-length"])).toBeGreaterThan(1000);
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers()["content-length"])).toBe((await plain.body()).length);
    // Both vary on Accept-Encoding, once.
    for (const r of [gz, plain]) expect(r.headers()["vary"].match(/accept-encoding/gi)).toHaveLength(1);
    // Same page either way, with Remix's scripts made inert and re-added.
    const [a, b] = [await gz.text(), await plain.text()];
    expect(a).toContain("</html>");
    expect(a).toContain('id="app-modules"');
    expect(a.length).toBe(b.length);
    // Rendered to its end before it left: the doctype, the loader data once, and the end of Remix's
    // data stream (without which the page could not hydrate).
    expect(a.startsWith("<!DOCTYPE html><html")).toBe(true);
    expect(a.match(/streamController\.enqueue\(/g)).toHaveLength(1);
    expect(a).toContain("window.__remixContext.streamController.close();");
  },
);

test(
  "an anonymous page is kept: the next visitor with the same address, region and consent choice gets it, with its age",
  { tag: "@js-covers" },
  async ({ page, request }) => {
    // An address no other test asks for: the first request renders it.
    const url = `/ofertas/?search=${`guardada${Date.now()}${Math.random().toString(36).slice(2, 6)}`}`;
    const first = await request.get(url);
    expect(first.status()).toBe(200);
    expect(first.headers()["age"]).toBeUndefined();
    const second = await request.get(url);
    expect(second.headers()["age"]).toMatch(/^\d+$/);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    // A visitor whose session holds a region (page.request: the browser's cookies; request: none)
    // shares that region's page, not the anonymous one.
    await page.request.post("/region", {
      form: { region: "Madrid", redirectTo: url },
      headers: { "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    const inMadrid = await page.request.get(url);
    expect(inMadrid.headers()["age"]).toBeUndefined();
    // React writes a comment between a text and the value that follows it.
    const madrid = /para ti en (<!-- -->)?Madrid</;
    expect(await inMadrid.text()).toMatch(madrid);
    const againInMadrid = await page.request.get(url);
    expect(againInMadrid.headers()["age"]).toMatch(/^\d+$/);
    expect(againInMadrid.headers()["cache-control"]).toBe("private, no-cache");
    expect(await (await request.get(url)).text()).not.toMatch(madrid);
  },
);

test("a kept page never reaches a visitor who is logged in, has a cart or has a message waiting, and theirs is never kept", async ({
  page,
  request,
  js,
  newCustomer,
  loginAs,
}) => {
  /** The home page as a visitor with no cookie gets it: the kept one. */
  const anonymous = async () => {
    await request.get("/");
    const kept = await request.get("/");
    expect(kept.headers()["age"]).toMatch(/^\d+$/);
    return kept.text();
  };
  await anonymous();
  const cart = page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge");

  // Logged in: the page names them, and is not kept for anyone.
  const user = await newCustomer();
  await loginAs(user);
  expect((await page.goto("/"))!.headers()["age"]).toBeUndefined();
  await ready(page, js);
  await expectLoggedInAs(page, user.email);
  expect(await anonymous()).not.toContain(user.email);

  // A message waiting, and nothing else: logging out leaves «Has cerrado sesión.» for the next page.
  expect((await page.request.post("/logout", { form: { redirectTo: "/" }, maxRedirects: 0 })).status()).toBe(303);
  expect((await page.goto("/"))!.headers()["age"]).toBeUndefined();
  await expect(page.getByText("Has cerrado sesión.").first()).toBeAttached();
  await expect(page.getByRole("link", { name: /^Mi cuenta/ })).toHaveCount(0);
  expect(await anonymous()).not.toContain("Has cerrado sesión.");
  // Shown once; then this visitor has nothing of their own and gets the kept page.
  expect((await page.goto("/"))!.headers()["age"]).toMatch(/^\d+$/);
  await expect(page.getByText("Has cerrado sesión.")).toHaveCount(0);

  // A cart: the page counts its tickets, and is not kept for anyone.
  await addToCart(page, js, await roomyOffer(page), 2);
  expect((await page.goto("/"))!.headers()["age"]).toBeUndefined();
  await ready(page, js);
  await expect(cart).toHaveText("2");
  expect(await anonymous()).not.toContain('class="count-badge"');
});

test("an offer whose link was hovered opens with the data the hover loaded: not fetched again on the click", async ({ page, js }) => {
  test.skip(!js, "prefetching is the app's");
  const asked: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (/^\/ofertas\/[0-9a-f-]{36}\.data$/.test(url.pathname) && !/^root$/.test(url.searchParams.get("_routes") ?? ""))
      asked.push(url.pathname);
  });
  await page.goto("/");
  await ready(page, js);
  const card = page.locator("article.card a.card-link").first();
  const path = new URL((await card.getAttribute("href"))!, page.url()).pathname;
  const loaded = page.waitForResponse((r) => new URL(r.url()).pathname === path.replace(/\/$/, ".data"));
  await card.hover();
  await loaded;
  expect(asked).toEqual([path.replace(/\/$/, ".data")]);
  await card.click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  expect(asked).toHaveLength(1);
  // Used once: coming back to it later asks again, for live stock.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.locator(`article.card a.card-link[href="${path}"]`).first().click({ delay: 0 });
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect.poll(() => asked.length).toBe(2);
});
