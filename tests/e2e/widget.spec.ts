import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";

// A partner's site: a real server on another origin (127.0.0.1 on its own port). It has to be a
// real local address, because Chromium refuses to let pages of unknown address frame local ones.
let partner: Server;
let partnerOrigin = "";
test.beforeAll(async ({ baseURL }) => {
  partner = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="es"><body><h1>Blog de un socio</h1>
      <iframe id="w" src="${baseURL}/iframe/?region=Madrid" title="Ofertas" width="900" height="480"></iframe></body></html>`);
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

  const html = await (await page.request.get("/iframe/")).text();
  expect(html).not.toMatch(/<script[^>]*src=/);
  expect(html).not.toContain("modulepreload");
});

test("only /iframe may be framed", async ({ request }) => {
  const widget = await request.get("/iframe/");
  expect(widget.headers()["x-frame-options"]).toBeUndefined();
  expect(widget.headers()["content-security-policy"]).toContain("frame-ancestors *");
  const home = await request.get("/");
  expect(home.headers()["x-frame-options"]).toBe("DENY");
  expect(home.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  const routes = await request.get("/iframe/routes");
  expect(await routes.text()).toContain("&lt;iframe src=");
});

test("reading pages ship no JavaScript", async ({ request }) => {
  for (const path of ["/agreement", "/cookie-policy", "/no-existe"]) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toMatch(/<script[^>]*src=|modulepreload|type="module"/);
  }
});
