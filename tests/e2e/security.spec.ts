import { expect, test } from "./support/fixtures";
import { E2E_DATA_DIR } from "./support/run-ports";

test("a tampered or unreadable cookie reads as an empty cart, never a 500", { tag: "@js-covers" }, async ({ browser, baseURL }) => {
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

test("forms posted from another site are refused before any action runs", { tag: "@js-covers" }, async ({ request }) => {
  const foreign = await request.post("/cart", {
    form: { intent: "clear" },
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  const badOrigin = await request.post("/region", {
    form: { region: "Madrid" },
    headers: { Origin: "http://evil.example" },
    maxRedirects: 0,
  });
  expect(badOrigin.status()).toBe(403);
  const ours = await request.post("/region", { form: { region: "Madrid" }, headers: { "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  expect(ours.status()).toBe(303);
});

test("an action's body it cannot read is a Spanish 400, never a 500", { tag: "@js-covers" }, async ({ request }) => {
  const cases: { path: string; headers?: Record<string, string>; data?: string }[] = [
    { path: "/cart", data: "intent=clear" }, // no content type at all
    { path: "/cart", headers: { "content-type": "application/json" }, data: '{"intent":"clear"}' },
    { path: "/region", headers: { "content-type": "multipart/form-data; boundary=x" }, data: "--x\r\nbroken" },
    { path: "/checkout/", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "email=a%00b%40correo.es" },
    { path: "/consent", headers: { "content-type": "text/plain" }, data: "consent=accepted" },
  ];
  for (const c of cases) {
    const response = await request.post(c.path, {
      headers: { "Sec-Fetch-Site": "same-origin", ...c.headers },
      data: c.data,
      maxRedirects: 0,
    });
    expect(response.status(), `${c.path} ${JSON.stringify(c.headers)}`).toBe(400);
    const text = await response.text();
    expect(text).toMatch(/formulario|petición|caracteres/);
    expect(text).not.toMatch(/at .*\.(js|ts):\d+/);
  }
});

test("a redirectTo outside Latin-1 still redirects there, percent-encoded", { tag: "@js-covers" }, async ({ request }) => {
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

test(
  "a foreign or malformed Host is refused before any page, sitemap or robots.txt is built",
  { tag: "@js-covers" },
  async ({ baseURL }) => {
    const { request: httpRequest } = await import("node:http");
    const { port } = new URL(baseURL!);
    const get = (path: string, host: string, method = "GET") =>
      new Promise<{ status: number; cache?: string; text: string }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path, method, headers: { Host: host } }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, cache: res.headers["cache-control"], text }));
        });
        req.on("error", reject);
        req.end();
      });
    for (const path of ["/", "/sitemap.xml", "/robots.txt", "/ofertas/", "/api/v0/public/offers/"]) {
      const foreign = await get(path, "evil.example");
      expect(foreign.status, path).toBe(400);
      expect(foreign.cache).toBe("no-store");
      expect(foreign.text).not.toContain("evil.example");
      expect((await get(path, "a b")).status, path).toBe(400);
    }
    const ours = await get("/sitemap.xml", `localhost:${port}`);
    expect(ours.status).toBe(200);
    expect(ours.text).toContain(`http://localhost:${port}/`);
  },
);

test("a second server on the same DATA_DIR refuses to start and names the one serving", { tag: "@js-covers" }, async () => {
  const { spawn } = await import("node:child_process");
  const dataDir = E2E_DATA_DIR;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code, output).toBe(1);
  expect(output).toMatch(/ya lo usa otro proceso de ofertas \(pid \d+, http:\/\/localhost:\d+/);
});

test(
  "legacy ?_data= requests and writes to unknown paths are plain 4xx, never a 500 or a 405",
  { tag: "@js-covers" },
  async ({ request }) => {
    for (const url of ["/?_data=root", "/ofertas/?_data=routes%2Fofertas._index", "/cart?_data=%00"]) {
      const response = await request.get(url, { maxRedirects: 0 });
      expect(response.status(), url).toBe(400);
      expect(response.headers()["cache-control"]).toBe("no-store");
    }
    // One segment or several: an unknown path is a 404 whatever the method.
    for (const path of ["/no-existe/en/absoluto", "/no-existe"]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const response = await request.fetch(path, {
          method,
          headers: { "Sec-Fetch-Site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
          data: "a=1",
          maxRedirects: 0,
        });
        expect(response.status(), `${method} ${path}`).toBe(404);
        expect(await response.text()).not.toMatch(/\bat .*\.(js|ts):\d+/);
      }
    }
    // An information page exists: it only takes no posts.
    const post = await request.post("/contacts", { headers: { "Sec-Fetch-Site": "same-origin" }, form: { a: "1" }, maxRedirects: 0 });
    expect(post.status()).toBe(405);
  },
);

test("/favicon.ico is the shop's icon, for the clients that ask for it by that name", { tag: "@js-covers" }, async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  const body = await response.body();
  // An ICO directory (reserved 0, type 1) holding at least a 16 and a 32 px image.
  expect(body.readUInt16LE(0)).toBe(0);
  expect(body.readUInt16LE(2)).toBe(1);
  const sizes = Array.from({ length: body.readUInt16LE(4) }, (_, i) => body.readUInt8(6 + 16 * i));
  expect(sizes).toEqual(expect.arrayContaining([16, 32]));
});

test(
  "a page rendered for one visitor carries a CSP whose per-request nonce is on every inline script",
  { tag: "@js-covers" },
  async ({ request }) => {
    // Any cookie of the shop's makes the page the visitor's own (here one that reads as an empty cart).
    const personal = { headers: { cookie: "__cart=x" } };
    const first = await request.get("/ofertas/", personal);
    const csp = first.headers()["content-security-policy"];
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, csp).toBeTruthy();
    for (const part of ["object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"])
      expect(csp).toContain(part);
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)]
      .map((m) => m[1])
      .filter((attrs) => !/type="application\/ld\+json"/.test(attrs));
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    const second = await request.get("/ofertas/", personal);
    expect(second.headers()["content-security-policy"]).not.toContain(nonce!);
  },
);

test(
  "a kept page's CSP lists the hash of each of its inline scripts, no nonce, and its scripts run",
  { tag: "@js-covers" },
  async ({ page, request, js }) => {
    const { createHash } = await import("node:crypto");
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ["/ofertas/", "/"]) {
      await request.get(path);
      const response = (await page.goto(path))!;
      // Kept: the page an anonymous visitor before this one was given.
      expect(response.headers()["age"], path).toMatch(/^\d+$/);
      const csp = response.headers()["content-security-policy"];
      const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "))!;
      expect(scriptSrc, path).toMatch(/^script-src 'self'( 'sha256-[\w+/]+=*')+$/);
      for (const part of ["object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"])
        expect(csp).toContain(part);
      const html = await response.text();
      expect(html, path).not.toMatch(/<script[^>]*\snonce=/);
      const inline = [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      expect(inline.length, path).toBeGreaterThan(2);
      for (const text of inline)
        expect(scriptSrc, `${path}: ${text.slice(0, 60)}`).toContain(
          `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`,
        );
      // With JavaScript the app starts (the layout marks <html class="js"> once hydrated): the
      // loader, then Remix's module it adds, both allowed by hash.
      if (js) await expect(page.locator("html.js")).toHaveCount(1);
    }
    expect(violations).toEqual([]);
  },
);

test("the API's answers carry one fixed policy that allows nothing, at both base paths", { tag: "@js-covers" }, async ({ request }) => {
  for (const url of ["/api/v0/public/offers/?page_size=1", "/v0/public/offers/?page_size=1", "/api/v0/no-existe/"]) {
    const response = await request.get(url);
    const headers = response.headers();
    expect(headers["content-security-policy"], url).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["x-frame-options"], url).toBe("DENY");
    expect(headers["x-content-type-options"], url).toBe("nosniff");
    expect(headers["permissions-policy"], url).toContain("camera=()");
  }
});

test("a form post with Origin: null and no Sec-Fetch-Site is refused like a cross-site one", { tag: "@js-covers" }, async ({ request }) => {
  const refused = await request.post("/region", { form: { region: "Madrid" }, headers: { Origin: "null" }, maxRedirects: 0 });
  expect(refused.status()).toBe(403);
});
