// @vitest-environment node
import { describe, expect, it } from "vitest";
import { makeChoice } from "#lib/consent";
import { loadConfig } from "#lib/config.server";
import { thirdPartySources } from "#app/lib/third-party-csp.server";

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

describe("third-party CSP sources", () => {
  it("are empty without keys, whatever was accepted", () => {
    expect(all(thirdPartySources(loadConfig(base), makeChoice({ analytics: true, marketing: true }), "/order/"))).toEqual([]);
  });

  it("are empty before a choice and after rejecting, except the necessary tools on their own pages", () => {
    const c = loadConfig(keys);
    for (const choice of [null, makeChoice({ analytics: false, marketing: false })]) {
      expect(all(thirdPartySources(c, choice, "/"))).toEqual([]);
      expect(all(thirdPartySources(c, choice, "/ofertas/x/"))).toEqual([]);
      expect(thirdPartySources(c, choice, "/order/").script).toEqual(["https://www.paypal.com"]);
      expect(thirdPartySources(c, choice, "/empresas").script).toEqual(["https://challenges.cloudflare.com"]);
    }
  });

  it("follow each accepted category", () => {
    const c = loadConfig(keys);
    const analytics = thirdPartySources(c, makeChoice({ analytics: true, marketing: false }), "/ofertas/x/");
    expect(analytics.connect).toContain("https://api.eu.amplitude.com");
    expect(analytics.script).toEqual([]);
    expect(analytics.img).toEqual([]);
    const marketing = thirdPartySources(c, makeChoice({ analytics: false, marketing: true }), "/ofertas/x/");
    expect(marketing.script).toEqual(["https://www.googletagmanager.com"]);
    expect(marketing.img).toContain("https://tiles.example.es");
    expect(marketing.connect).not.toContain("https://api.eu.amplitude.com");
  });
});
