// @vitest-environment node
import { describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";
import { contentSecurityPolicy } from "#app/document/csp.server";
import { thirdPartySources } from "#app/document/third-party-csp.server";

const base = { NODE_ENV: "test", SESSION_SECRET: "test-secret-for-the-csp-test-0123456789", DATA_DIR: "/tmp/ofertas-test-unused" } as const;
const keys = {
  ...base,
  ANALYTICS_API_KEY: "k",
  GTM_ID: "GTM-ABCD123",
  MAPS_TILES_URL: "https://tiles.example.es/{z}/{x}/{y}.png",
  CAPTCHA_SITE_KEY: "site",
  CAPTCHA_SECRET: "secret",
  PAYMENT_PROVIDER: "paypal",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "s",
  PAYPAL_WEBHOOK_ID: "w",
};
const all = (s: ReturnType<typeof thirdPartySources>) => Object.values(s).flat();
const directive = (policy: string, name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("third-party CSP sources", () => {
  it("are empty without keys: the policy is the shop's own", () => {
    const c = loadConfig(base);
    expect(all(thirdPartySources(c))).toEqual([]);
    const s = thirdPartySources(c);
    const policy = contentSecurityPolicy({
      nonce: "n",
      framable: false,
      config: c,
      thirdParty: { "script-src": s.script, "connect-src": s.connect, "img-src": s.img },
    });
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-n'");
    expect(policy).not.toMatch(/connect-src|img-src/);
  });

  it("name each configured tool's hosts, and the policy allows exactly those", () => {
    const c = loadConfig(keys);
    const s = thirdPartySources(c);
    expect(s.script.sort()).toEqual(["https://challenges.cloudflare.com", "https://www.googletagmanager.com", "https://www.paypal.com"]);
    expect(s.connect).toContain("https://api.eu.amplitude.com");
    expect(s.connect).not.toContain("https://api2.amplitude.com");
    expect(s.img).toContain("https://tiles.example.es");
    expect(s.frame).toContain("https://challenges.cloudflare.com");
    const policy = contentSecurityPolicy({
      nonce: "n+/0Zx==",
      framable: false,
      config: c,
      thirdParty: { "script-src": s.script, "connect-src": s.connect, "img-src": s.img, "frame-src": s.frame },
    });
    expect(directive(policy, "script-src")).toContain("https://www.paypal.com");
    // The page's own inline scripts keep their nonce beside the hosts.
    expect(directive(policy, "script-src")).toMatch(/^script-src 'self' 'nonce-n\+\/0Zx==' /);
    expect(directive(policy, "connect-src")).toMatch(/^connect-src 'self' https:\/\/api\.eu\.amplitude\.com/);
    expect(directive(policy, "img-src")).toContain("https://tiles.example.es");
    expect(directive(policy, "frame-src")).toContain("https://challenges.cloudflare.com");
    // A shared page lists its scripts' hashes there instead, and allows the same hosts.
    const shared = contentSecurityPolicy({
      scriptHashes: ["'sha256-x'"],
      framable: false,
      config: c,
      thirdParty: { "script-src": s.script, "connect-src": s.connect },
    });
    expect(directive(shared, "script-src")).toBe(directive(policy, "script-src").replace("'nonce-n+/0Zx=='", "'sha256-x'"));
    expect(directive(shared, "connect-src")).toBe(directive(policy, "connect-src"));
  });

  it("let analytics start its workers (session replay's, from blob: URLs) only once analytics is configured", () => {
    const on = thirdPartySources(loadConfig({ ...base, ANALYTICS_API_KEY: "k" }));
    expect(on.worker).toEqual(["blob:"]);
    const c = loadConfig(base);
    expect(thirdPartySources(c).worker).toEqual([]);
    const policy = contentSecurityPolicy({ nonce: "n", framable: false, config: c, thirdParty: { "worker-src": on.worker } });
    expect(directive(policy, "worker-src")).toBe("worker-src 'self' blob:");
    // Without analytics: the shop's own offline worker only.
    expect(
      directive(contentSecurityPolicy({ nonce: "n", framable: false, config: c, thirdParty: { "worker-src": [] } }), "worker-src"),
    ).toBe("worker-src 'self'");
  });

  it("refuse a configured URL that would inject a directive", () => {
    const c = loadConfig({ ...base, MAPS_TILES_URL: "https://tiles.example.es/{z}/{x}/{y}.png" });
    const policy = contentSecurityPolicy({
      nonce: "n",
      framable: false,
      config: c,
      thirdParty: { "img-src": ["https://a.example; script-src *"] },
    });
    expect(policy).not.toContain("script-src *");
  });
});
