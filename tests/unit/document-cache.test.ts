// @vitest-environment node
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeChoice } from "#rules/consent";
import { listen } from "#tests/support/listen";

// The cookie modules read the environment once, so it is set before they are first imported.
const originalEnv = { SESSION_SECRET: process.env.SESSION_SECRET, NODE_ENV: process.env.NODE_ENV };
process.env.SESSION_SECRET = "unit-test-secret-0123456789abcdef";
process.env.NODE_ENV = "test";
const { documentCache } = await import("#app/document/document-cache.server");
const { consentCookie, cookies } = await import("#app/state/cookies.server");
type ShareDocument = import("#app/document/document-cache.server").ShareDocument;

/*
 * The middleware in front of a stand-in for Remix over real HTTP: the stand-in renders a page
 * that names the request's number and its cookies, and keeps it when the middleware offered to
 * (as entry.server.tsx does for a shared page). A page from the cache names an earlier request.
 */
let origin: string;
let close: () => Promise<void>;
let renders = 0;
let t = 1_000_000;
const SECONDS = 60;

beforeAll(async () => {
  const app = express();
  app.use(
    documentCache({ seconds: SECONDS, policy: (path, hashes) => `script-src 'self' ${hashes.join(" ")}; for ${path}`, now: () => t }),
  );
  app.use((req, res) => {
    renders++;
    const html =
      `<!DOCTYPE html><html><body>render ${renders} for ${req.headers.cookie ?? "nobody"}<script>go()</script></body></html>`.padEnd(2_000);
    const share = res.locals.shareDocument as ShareDocument | undefined;
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", Vary: "Cookie", "Cache-Control": "from the render" });
    share?.({ html: Buffer.from(html), scriptHashes: ["'sha256-go'"], headers });
    res
      .status(200)
      .set({ "Content-Type": "text/html; charset=utf-8", Vary: "Cookie", "X-Offered": share ? "yes" : "no" })
      .send(html);
  });
  ({ origin, close } = await listen(app));
});
afterAll(async () => {
  await close();
  for (const [k, v] of Object.entries(originalEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${origin}${path}`, { method, headers, redirect: "manual" });
const body = async (r: Response) => (await r.text()).trimEnd();

/** The signed session cookie holding `data` (flash: a message for the next page). */
async function session(data: Record<string, unknown>, flash: Record<string, unknown> = {}) {
  const storage = cookies().session;
  const s = await storage.getSession();
  const open = s as unknown as { set(key: string, value: unknown): void; flash(key: string, value: unknown): void };
  for (const [k, v] of Object.entries(data)) open.set(k, v);
  for (const [k, v] of Object.entries(flash)) open.flash(k, v);
  return (await storage.commitSession(s)).split(";")[0];
}
const consent = async (analytics: boolean, marketing: boolean, date = new Date()) =>
  (await consentCookie().serialize(makeChoice({ analytics, marketing }, date))).split(";")[0];

/** Whether the middleware, in front of a handler that says so, offered to keep the page of `GET /`. */
async function offered(app: express.Express): Promise<string> {
  app.use((_req, res) => res.send(res.locals.shareDocument ? "offered" : "not offered"));
  const server = await listen(app);
  try {
    return await (await fetch(`${server.origin}/`)).text();
  } finally {
    await server.close();
  }
}

let path = 0;
/** A page address no other test has asked for. */
const fresh = () => `/ofertas/?page=${++path}`;

describe("documentCache", () => {
  it("keeps a shared page for everyone with the same address: the next visitor gets it whole, with its scripts' hashes and its age", async () => {
    const url = fresh();
    const first = await get(url, { "accept-encoding": "gzip" });
    expect(first.headers.get("x-offered")).toBe("yes");
    expect(first.headers.get("age")).toBeNull();
    const text = await body(first);
    t += 5_000;
    const second = await get(url, { "accept-encoding": "gzip" });
    expect(await body(second)).toBe(text);
    expect(second.headers.get("x-offered")).toBeNull();
    expect(second.headers.get("age")).toBe("5");
    expect(second.headers.get("content-encoding")).toBe("gzip");
    expect(second.headers.get("content-security-policy")).toBe(`script-src 'self' 'sha256-go'; for /ofertas/`);
    // Worked out for this answer, not the render's: the visitor sent no cookie.
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("vary")).toBe("Cookie");
    // A client that refuses gzip gets the same page plain.
    const plain = await get(url, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Number(plain.headers.get("content-length"))).toBe(Buffer.byteLength(await plain.clone().text()));
    expect(await body(plain)).toBe(text);
  });

  it("keeps a page for CATALOGUE_CACHE_SECONDS, then renders it again", async () => {
    const url = fresh();
    const first = await body(await get(url));
    t += (SECONDS - 1) * 1000;
    expect(await body(await get(url))).toBe(first);
    t += 1000;
    const later = await get(url);
    expect(later.headers.get("x-offered")).toBe("yes");
    expect(await body(later)).not.toBe(first);
  });

  it("keys by region and consent choice: a visitor whose session holds only a region shares that region's page", async () => {
    const url = fresh();
    const madrid = await session({ region: "Madrid" });
    const sevilla = await session({ region: "Sevilla" });
    const m1 = await body(await get(url, { cookie: madrid }));
    const s1 = await body(await get(url, { cookie: sevilla }));
    expect(s1).not.toBe(m1);
    const again = await get(url, { cookie: await session({ region: "Madrid" }) });
    expect(await body(again)).toBe(m1);
    // Kept for a visitor with a cookie: private for a CDN, whatever the render said.
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    // The same choice made on another day is the same page; another choice is another page.
    const rejected = await body(await get(url, { cookie: `${madrid}; ${await consent(false, false, new Date("2026-01-01"))}` }));
    expect(rejected).not.toBe(m1);
    expect(await body(await get(url, { cookie: `${madrid}; ${await consent(false, false, new Date("2026-02-01"))}` }))).toBe(rejected);
    expect(await body(await get(url, { cookie: `${madrid}; ${await consent(true, false)}` }))).not.toBe(rejected);
  });

  it("never answers from, nor offers to keep for, a request that is someone's own", async () => {
    const url = fresh();
    const shared = await body(await get(url));
    const personal: [string, Record<string, string>, string?][] = [
      [
        "a login",
        {
          cookie: await session({
            authData: { commonData: { access: "a", refresh: "r", token_expired_at: 0, isAuth: true, email: "ana@example.es" } },
          }),
        },
      ],
      ["a login by header", { authorization: "Bearer a" }],
      ["a cart", { cookie: "__cart=eyJpdGVtcyI6W119.sig" }],
      ["a checkout", { cookie: "__checkout=x" }],
      ["a message waiting", { cookie: await session({}, { toasts: [{ type: "success", text: "Añadido al carrito" }] }) }],
      ["a message beside a region", { cookie: await session({ region: "Madrid" }, { toasts: [{ type: "error", text: "No" }] }) }],
      ["favourites", { cookie: await session({ favorites: ["00000000-1111-4222-8333-444455556666"] }) }],
      ["offers viewed", { cookie: await session({ viewed: ["00000000-1111-4222-8333-444455556666"] }) }],
      ["a tool's cookie", { cookie: "_ga=GA1.1.1" }],
      ["a query the page does not read", {}, `${url}&utm_source=correo`],
      ["a query with a token", {}, `${url}&token=abc`],
    ];
    for (const [what, headers, address = url] of personal) {
      const response = await get(address, headers);
      expect(response.headers.get("x-offered"), what).toBe("no");
      expect(response.headers.get("age"), what).toBeNull();
      expect(await body(response), what).not.toBe(shared);
    }
    for (const [method, address] of [
      ["POST", url],
      ["HEAD", url],
      ["GET", "/ofertas.data"],
    ]) {
      const response = await get(address, {}, method);
      expect(response.headers.get("x-offered"), `${method} ${address}`).toBe("no");
    }
    // None of them was kept: the anonymous page is still the first.
    expect(await body(await get(url))).toBe(shared);
    // A session cookie that fails its signature reads as no session, here as in the pages; a
    // logged-out visitor's login holds no token and a blanked address: not logged in either.
    expect(await body(await get(url, { cookie: "__session=%%%" }))).toBe(shared);
    expect(await body(await get(url, { cookie: await session({ authData: { commonData: { email: "" } } }) }))).toBe(shared);
    // An empty Cookie header is none at all: public, as the render says.
    expect((await get(url, { cookie: "" })).headers.get("cache-control")).toMatch(/^public/);
  });

  it("leaves a request alone when a cookie was already set on its way (a renewed login)", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.append("Set-Cookie", "__session=renewed");
      next();
    });
    app.use(documentCache({ seconds: SECONDS, policy: () => "" }));
    expect(await offered(app)).toBe("not offered");
  });

  it("keeps nothing when CATALOGUE_CACHE_SECONDS is 0", async () => {
    const withCache = (seconds: number) => express().use(documentCache({ seconds, policy: () => "" }));
    expect(await offered(withCache(60))).toBe("offered");
    expect(await offered(withCache(0))).toBe("not offered");
  });
});
