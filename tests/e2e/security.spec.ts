import { expect, test } from "./fixtures";

test("a tampered or unreadable cookie reads as an empty cart, never a 500", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const host = new URL(baseURL!).hostname;
  await context.addCookies([
    { name: "__cart", value: "eyJ2IjoxLCJpIjpbXX0%3D.forged-signature", domain: host, path: "/" },
    { name: "__session", value: "%%%not-base64%%%", domain: host, path: "/" },
    { name: "__checkout", value: "garbage", domain: host, path: "/" },
  ]);
  const page = await context.newPage();
  const response = await page.goto("/checkout/");
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Tu carrito de compras está vacío")).toBeVisible();
  expect((await page.goto("/order/"))?.url()).toMatch(/\/checkout\/$/);
  await context.close();
});

test("forms posted from another site are refused before any action runs", async ({ request }) => {
  const foreign = await request.post("/cart", {
    form: { intent: "clear" },
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  const badOrigin = await request.post("/region", { form: { region: "Madrid" }, headers: { Origin: "http://evil.example" }, maxRedirects: 0 });
  expect(badOrigin.status()).toBe(403);
  const ours = await request.post("/region", { form: { region: "Madrid" }, headers: { "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  expect(ours.status()).toBe(303);
});

test("an action's body it cannot read is a Spanish 400, never a 500", async ({ request }) => {
  const cases: { path: string; headers?: Record<string, string>; data?: string }[] = [
    { path: "/cart", data: "intent=clear" }, // no content type at all
    { path: "/cart", headers: { "content-type": "application/json" }, data: '{"intent":"clear"}' },
    { path: "/region", headers: { "content-type": "multipart/form-data; boundary=x" }, data: "--x\r\nbroken" },
    { path: "/checkout/", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "email=a%00b%40correo.es" },
    { path: "/buscar", headers: { "content-type": "multipart/form-data" }, data: "no boundary" },
    { path: "/consent", headers: { "content-type": "text/plain" }, data: "consent=accepted" },
  ];
  for (const c of cases) {
    const response = await request.post(c.path, { headers: { "Sec-Fetch-Site": "same-origin", ...c.headers }, data: c.data, maxRedirects: 0 });
    expect(response.status(), `${c.path} ${JSON.stringify(c.headers)}`).toBe(400);
    const text = await response.text();
    expect(text).toMatch(/formulario|petición|caracteres/);
    expect(text).not.toMatch(/at .*\.(js|ts):\d+/);
  }
});

test("a redirectTo outside Latin-1 still redirects there, percent-encoded", async ({ request }) => {
  for (const to of ["/€", "/ofertas/?q=😋", "/a\u2028b"]) {
    const response = await request.post("/region", {
      form: { region: "Madrid", redirectTo: to },
      headers: { "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(response.status(), to).toBe(303);
    expect(decodeURI(response.headers()["location"])).toBe(to);
  }
});
