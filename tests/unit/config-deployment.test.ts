// @vitest-environment node
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#platform/config.server";

const deployment = {
  NODE_ENV: "production",
  PUBLIC_URL: "https://tienda.example",
  SESSION_SECRET: "a-deployment-secret-0123456789abcdef",
  PAYMENT_PROVIDER: "paypal",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "secret",
  PAYPAL_WEBHOOK_ID: "webhook",
} as const;

const freshDir = () => mkdtempSync(path.join(tmpdir(), "ofertas-config-"));

describe("a deployment (PUBLIC_URL https://…)", () => {
  it("refuses to start without SESSION_SECRET, naming it, and writes no generated one", () => {
    const dataDir = freshDir();
    const { SESSION_SECRET: _, ...rest } = deployment;
    expect(() => loadConfig({ ...rest, DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ ...rest, DATA_DIR: dataDir })).toThrow(/SESSION_SECRET: obligatorio en un despliegue/);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("refuses to start without PAYMENT_PROVIDER, naming it", () => {
    const { PAYMENT_PROVIDER: _, ...rest } = deployment;
    expect(() => loadConfig({ ...rest, DATA_DIR: freshDir() })).toThrow(/PAYMENT_PROVIDER: obligatorio en un despliegue/);
  });

  it("names both when both are missing", () => {
    const error = (() => {
      try {
        loadConfig({ NODE_ENV: "production", PUBLIC_URL: "https://tienda.example", DATA_DIR: freshDir() });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/SESSION_SECRET/);
    expect(error?.message).toMatch(/PAYMENT_PROVIDER/);
  });

  it("has no demo data unless DEMO_DATA=1, and never the demo staff", () => {
    const plain = loadConfig({ ...deployment, DATA_DIR: freshDir() });
    expect(plain).toMatchObject({ isDeployment: true, demoData: false, demoStaff: false, sandboxNotice: false });
    const demo = loadConfig({ ...deployment, DEMO_DATA: "1", DATA_DIR: freshDir() });
    expect(demo).toMatchObject({ demoData: true, demoStaff: false });
  });

  it("on the sandbox (a staging site) says so everywhere", () => {
    const staging = loadConfig({ ...deployment, PAYMENT_PROVIDER: "sandbox", DATA_DIR: freshDir() });
    expect(staging).toMatchObject({ PAYMENT_PROVIDER: "sandbox", sandboxNotice: true });
  });
});

describe("a try-out (no PUBLIC_URL, or http://)", () => {
  it("keeps the quick start: generated secret, sandbox, demo data and accounts, no notice", () => {
    for (const extra of [{}, { PUBLIC_URL: "http://localhost:3000" }]) {
      const dataDir = freshDir();
      const config = loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, ...extra });
      expect(config).toMatchObject({
        isDeployment: false,
        PAYMENT_PROVIDER: "sandbox",
        demoData: true,
        demoStaff: true,
        sandboxNotice: false,
      });
      expect(readdirSync(dataDir)).toEqual(["session-secret"]);
    }
  });

  it("DEMO_DATA=0 leaves the database empty there too", () => {
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir(), DEMO_DATA: "0" })).toMatchObject({ demoData: false, demoStaff: false });
  });

  it("refuses a DEMO_DATA that is neither 0 nor 1", () => {
    expect(() => loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir(), DEMO_DATA: "sí" })).toThrow(/DEMO_DATA: debe ser 1/);
  });
});

describe("TRUST_PROXY", () => {
  const trust = (value?: string) =>
    loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;

  it("is loopback by default", () => {
    expect(trust()).toEqual(["loopback"]);
    expect(trust("")).toEqual(["loopback"]);
  });

  it("takes a hop count", () => {
    expect(trust("2")).toBe(2);
  });

  it("takes addresses and CIDR ranges, and keeps loopback for the storefront's own calls", () => {
    expect(trust("10.0.0.0/8, 192.168.1.7,fd00::/8")).toEqual(["10.0.0.0/8", "192.168.1.7", "fd00::/8", "loopback"]);
    expect(trust("uniquelocal")).toEqual(["uniquelocal", "loopback"]);
  });

  it.each(["yes", "10.0.0.0/33", "300.1.1.1", "10.0.0.1/8/2", "99"])("refuses %s with a Spanish message", (value) => {
    expect(() => trust(value)).toThrow(/TRUST_PROXY: debe ser un número de saltos/);
  });
});
