// @vitest-environment node
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { allowCspSources, contentSecurityPolicy, inlineScriptHashes, parseExtraSources } from "#app/document/csp.server";
import { isCrossSiteWrite } from "#rules/cross-site";

const base = {
  PAYPAL_CLIENT_ID: undefined,
  PAYPAL_API_BASE: "https://api-m.sandbox.paypal.com",
  RAPYD_ACCESS_KEY: undefined,
  RAPYD_API_BASE: "https://sandboxapi.rapyd.net",
  ALLPAY_LOGIN: undefined,
  ALLPAY_API_BASE: "https://allpay.to/app/",
  CSP_EXTRA_SOURCES: undefined,
};

describe("contentSecurityPolicy, the one CSP builder", () => {
  it("scripts only from self or with the nonce; no plugins; base and forms kept home", () => {
    const csp = contentSecurityPolicy({ nonce: "abc", framable: false, config: base });
    expect(csp).toBe(
      "script-src 'self' 'nonce-abc'; object-src 'none'; base-uri 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; worker-src 'self'",
    );
    expect(contentSecurityPolicy({ nonce: "abc", framable: true, config: base })).toContain("frame-ancestors *");
  });

  it("lets only a page that asks compile WebAssembly, and never allows eval", () => {
    const till = contentSecurityPolicy({ nonce: "abc", framable: false, wasm: true, config: base });
    expect(till).toContain("script-src 'self' 'wasm-unsafe-eval' 'nonce-abc';");
    expect(till).not.toMatch(/'unsafe-eval'/);
    expect(contentSecurityPolicy({ nonce: "abc", framable: false, config: base })).not.toContain("wasm");
  });

  it("form-action lists the configured payment providers' pages", () => {
    const csp = contentSecurityPolicy({
      nonce: "n",
      framable: false,
      config: { ...base, PAYPAL_CLIENT_ID: "id", RAPYD_ACCESS_KEY: "k", ALLPAY_LOGIN: "l" },
    });
    expect(csp).toContain("form-action 'self' https://www.sandbox.paypal.com https://sandboxcheckout.rapyd.net https://allpay.to");
  });

  it("is extended from configuration and from code, and refuses injected directives", () => {
    const csp = contentSecurityPolicy({
      nonce: "n",
      framable: false,
      config: {
        ...base,
        CSP_EXTRA_SOURCES:
          "script-src https://www.googletagmanager.com; frame-src https://challenges.cloudflare.com 'none';x; connect-src evil.example;default-src *",
      },
    });
    expect(csp).toContain("script-src 'self' 'nonce-n' https://www.googletagmanager.com");
    expect(csp).toContain("frame-src 'self' https://challenges.cloudflare.com 'none'");
    expect(csp).toContain("connect-src 'self' evil.example");
    expect(csp).not.toContain("default-src");
    expect(parseExtraSources("script-src https://a.example;b https://c.example").get("script-src")).toEqual(["https://a.example"]);
    allowCspSources("img-src", "https://maps.example", "x; script-src *");
    expect(contentSecurityPolicy({ nonce: "n", framable: false, config: base })).toContain("img-src 'self' https://maps.example");
    expect(contentSecurityPolicy({ nonce: "n", framable: false, config: base })).not.toContain("script-src *");
  });
});

describe("a shared page's policy: its inline scripts by hash", () => {
  const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

  it("hashes the text of each inline script as the browser does (UTF-8), once each, never a script with a src", () => {
    const html =
      '<html><head><script type="application/ld+json">{"a":"€"}</script><script src="/assets/a.js"></script></head>' +
      '<body><script>window.__remixContext = {};</script><script type="text/x-deferred-module" id="app-modules">import("/assets/entry.client-a.js");</script>' +
      '<script>window.__remixContext = {};</script><script async="" type="module" src="/assets/b.js"></script><script>\n</script></body></html>';
    expect(inlineScriptHashes(html)).toEqual([
      sha('{"a":"€"}'),
      sha("window.__remixContext = {};"),
      sha('import("/assets/entry.client-a.js");'),
      sha("\n"),
    ]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });

  it("lists the hashes where the nonce would be, with everything else the same", () => {
    const hashed = contentSecurityPolicy({ scriptHashes: ["'sha256-a'", "'sha256-b'"], framable: false, config: base });
    expect(hashed).toMatch(
      /^script-src 'self' 'sha256-a' 'sha256-b'; object-src 'none'; base-uri 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'/,
    );
    expect(hashed.replace(/ 'sha256-[ab]'/g, "")).toBe(
      contentSecurityPolicy({ nonce: "n", framable: false, config: base }).replace(" 'nonce-n'", ""),
    );
    // A page without inline scripts (the information pages ship none) allows only files of this origin.
    expect(contentSecurityPolicy({ scriptHashes: [], framable: false, config: base })).toMatch(/^script-src 'self'; /);
  });
});

describe("isCrossSiteWrite", () => {
  it("refuses cross-site and opaque (null) origins, lets same-origin and header-less clients through", () => {
    const post = { method: "POST", host: "ofertas.es" };
    expect(isCrossSiteWrite({ ...post, secFetchSite: "cross-site" })).toBe(true);
    expect(isCrossSiteWrite({ ...post, secFetchSite: "same-site" })).toBe(true);
    expect(isCrossSiteWrite({ ...post, origin: "null" })).toBe(true);
    expect(isCrossSiteWrite({ ...post, origin: "https://evil.example" })).toBe(true);
    expect(isCrossSiteWrite({ ...post, origin: "not a url" })).toBe(true);
    expect(isCrossSiteWrite({ ...post, secFetchSite: "same-origin", origin: "null" })).toBe(false);
    expect(isCrossSiteWrite({ ...post, origin: "https://ofertas.es" })).toBe(false);
    expect(isCrossSiteWrite(post)).toBe(false);
    expect(isCrossSiteWrite({ ...post, method: "GET", secFetchSite: "cross-site" })).toBe(false);
  });
});
