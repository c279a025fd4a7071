import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./support/fixtures";

// A partner's site: a real server on another origin (127.0.0.1 on its own port). It has to be a
// real local address, because Chromium refuses to let pages of unknown address frame local ones.
let partner: Server;
let partnerOrigin = "";
test.beforeAll(async ({ baseURL }) => {
  partner = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      _req.url === "/script"
        ? `<!doctype html><html lang="es"><body><h1>Blog de un socio</h1>
      <div style="width:360px"><script src="${baseURL}/widget.js" data-region="Madrid" data-category="restaurants" async></script></div></body></html>`
        : `<!doctype html><html lang="es"><body><h1>Blog de un socio</h1>
      <iframe id="w" src="${baseURL}/iframe/?region=Madrid" title="Ofertas" width="900" height="480"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => partner.listen(0, "127.0.0.1", resolve));
  partnerOrigin = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => partner.close(() => resolve())));

test("the widget lists 3 offers inside an iframe on another site, without JavaScript", async ({ page, baseURL }) => {
  await page.goto(`${partnerOrigin}/post`);
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL!).origin);
  const widget = page.frameLocator("#w");
  const cards = widget.locator("article.card");
  await expect(cards).toHaveCount(3);
  for (const meta of await cards.locator(".card-meta").allTextContents()) expect(meta).toContain("Madrid");
  const link = cards.first().getByRole("link");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("href", /^\/ofertas\/[0-9a-f-]{36}\/$/);

  const response = await page.request.get("/iframe/");
  const html = await response.text();
  // No app bundle: the only script is the few lines that report the height to widget.js.
  expect([...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1])).toEqual(["/widget-frame.js"]);
  expect(html).not.toContain("modulepreload");
  expect(response.headers()["set-cookie"]).toBeUndefined();
});

test("only /iframe may be framed", { tag: "@js-covers" }, async ({ request }) => {
  const widget = await request.get("/iframe/");
  expect(widget.headers()["x-frame-options"]).toBeUndefined();
  expect(widget.headers()["content-security-policy"]).toContain("frame-ancestors *");
  const home = await request.get("/");
  expect(home.headers()["x-frame-options"]).toBe("DENY");
  expect(home.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  const routes = await request.get("/iframe/routes");
  expect(await routes.text()).toContain("&lt;iframe src=");
});

test("reading pages ship no JavaScript", { tag: "@js-covers" }, async ({ request }) => {
  for (const path of ["/agreement", "/cookie-policy"]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toMatch(/<script[^>]*src=|modulepreload|type="module"/);
  }
});

test("one-line embed: widget.js creates the frame and sizes it to its content, trusting only that frame", async ({ page, baseURL, js }) => {
  test.skip(!js, "widget.js is a script; without JS the plain iframe code is the embed");
  await page.goto(`${partnerOrigin}/script`);
  const frame = page.locator("iframe[title=Ofertas]");
  await expect(frame).toHaveAttribute("src", `${new URL(baseURL!).origin}/iframe/?region=Madrid&category=restaurants`);
  const widget = page.frameLocator("iframe[title=Ofertas]");
  await expect(widget.locator("article.card")).not.toHaveCount(0);
  // 430 is the documented default; the content at 360 px wide is shorter, and the frame follows it.
  await expect(frame).not.toHaveAttribute("height", "430");
  const content = await widget.locator("html").evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
  expect(Number(await frame.getAttribute("height"))).toBe(content);
  // A message from anyone else (here the partner page itself) is ignored.
  await page.evaluate(() => window.postMessage({ type: "ofertas:height", height: 2000 }, "*"));
  await page.waitForTimeout(300);
  expect(Number(await frame.getAttribute("height"))).toBe(content);
});

test("at phone width the 3 offers fit about 430 px", { tag: "@js-covers" }, async ({ page }) => {
  for (const width of [320, 360, 400]) {
    await page.setViewportSize({ width, height: 430 });
    await page.goto("/iframe/?region=Madrid");
    await expect(page.locator("article.card")).toHaveCount(3);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, `${width} px wide`).toBeLessThanOrEqual(440);
  }
});

test("/iframe/routes: a live preview and both embed codes per variant, codes that never break inside a word, copy buttons only with JS", async ({
  page,
  js,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/iframe/routes");
  const sections = page.locator(".widget-variant");
  const count = await sections.count();
  expect(count).toBeGreaterThan(3);
  await expect(page.locator("iframe.widget-preview")).toHaveCount(count);
  await expect(page.locator("pre code")).toHaveCount(count * 2);
  for (const pre of await page.locator("pre").all()) expect(await pre.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe("pre");
  await expect(page.locator("pre code").first()).toContainText('widget.js" async></script>');
  if (js) {
    await expect(page.locator("html.js")).toHaveCount(1);
    await expect(page.getByRole("button", { name: /^Copiar/ })).toHaveCount(count * 2);
  } else {
    await expect(page.getByRole("button", { name: /^Copiar/ })).toHaveCount(0);
  }
});
