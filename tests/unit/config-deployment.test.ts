// @vitest-environment node
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { ConfigError, loadConfig } from "#platform/config.server";
import { deploymentWarnings } from "#platform/config/deployment.server";
import { secretBits } from "#platform/config/secrets.server";

const deployment = {
  NODE_ENV: "production",
  PUBLIC_URL: "https://tienda.example",
  SESSION_SECRET: "a-deployment-secret-0123456789abcdef",
  PAYMENT_PROVIDER: "paypal",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "secret",
  PAYPAL_WEBHOOK_ID: "webhook",
  SMTP_URL: "smtp://correo.tienda.example:587",
} as const;

const freshDir = () => mkdtempSync(path.join(tmpdir(), "ofertas-config-"));

describe("a deployment (a PUBLIC_URL that is not this machine)", () => {
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

describe("a try-out (no PUBLIC_URL, or one on loopback)", () => {
  it("keeps the quick start: generated secret, sandbox, demo data and accounts, no notice", () => {
    for (const extra of [
      {},
      { PUBLIC_URL: "http://localhost:3000" },
      { PUBLIC_URL: "http://127.0.0.1:3000" },
      { PUBLIC_URL: "http://[::1]:3000" },
    ]) {
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

describe("where a try-out ends", () => {
  const settings = { NODE_ENV: "production", SESSION_SECRET: deployment.SESSION_SECRET, PAYMENT_PROVIDER: "sandbox" } as const;

  it("an http:// PUBLIC_URL of another host is a deployment: refused, unless ALLOW_INSECURE_HTTP=1, and never with demo staff", () => {
    const http = { ...settings, PUBLIC_URL: "http://tienda.example", SMTP_URL: deployment.SMTP_URL };
    expect(() => loadConfig({ ...http, DATA_DIR: freshDir() })).toThrow(
      /PUBLIC_URL: un despliegue se sirve por https:\/\/.*ALLOW_INSECURE_HTTP=1/,
    );
    const staging = loadConfig({ ...http, ALLOW_INSECURE_HTTP: "1", DEMO_DATA: "1", DATA_DIR: freshDir() });
    expect(staging).toMatchObject({ isDeployment: true, demoData: true, demoStaff: false, sandboxNotice: true });
    // Without a secret it is refused like any deployment, instead of a try-out with the README's staff password.
    expect(() => loadConfig({ NODE_ENV: "production", PUBLIC_URL: "http://tienda.example", DATA_DIR: freshDir() })).toThrow(
      /SESSION_SECRET: obligatorio en un despliegue/,
    );
  });

  it("DEPLOYMENT=1 makes a loopback PUBLIC_URL a deployment (compose's staging site); it needs a PUBLIC_URL", () => {
    const compose = { ...settings, PUBLIC_URL: "http://localhost:3000", DEPLOYMENT: "1", SMTP_URL: "smtp://mail:1025" };
    expect(loadConfig({ ...compose, DATA_DIR: freshDir() })).toMatchObject({ isDeployment: true, demoStaff: false, sandboxNotice: true });
    expect(() => loadConfig({ ...compose, PUBLIC_URL: "", DATA_DIR: freshDir() })).toThrow(/PUBLIC_URL: DEPLOYMENT=1 necesita PUBLIC_URL/);
    expect(() => loadConfig({ ...compose, DEPLOYMENT: "sí", DATA_DIR: freshDir() })).toThrow(/DEPLOYMENT: debe ser 1/);
    expect(loadConfig({ ...compose, DEPLOYMENT: "0", DATA_DIR: freshDir() }).isDeployment).toBe(false);
  });

  it("a deployment without SMTP_URL is refused, unless MAIL_TO_FILES=1", () => {
    const { SMTP_URL: _, ...noSmtp } = deployment;
    expect(() => loadConfig({ ...noSmtp, DATA_DIR: freshDir() })).toThrow(/SMTP_URL: obligatorio en un despliegue.*MAIL_TO_FILES=1/);
    expect(loadConfig({ ...noSmtp, MAIL_TO_FILES: "1", DATA_DIR: freshDir() }).SMTP_URL).toBeUndefined();
  });

  it("a deployment with SMTP and no DKIM gets a warning at start; a try-out or a signed one none", () => {
    expect(deploymentWarnings(loadConfig({ ...deployment, DATA_DIR: freshDir() }))).toEqual([expect.stringMatching(/sin firma DKIM/)]);
    expect(deploymentWarnings(loadConfig({ NODE_ENV: "test", SMTP_URL: "smtp://127.0.0.1:2525", DATA_DIR: freshDir() }))).toEqual([]);
  });
});

describe("secrets that are easy to guess", () => {
  const base = { NODE_ENV: "test", DATA_DIR: "/tmp/ofertas-test-unused" } as const;
  it.each([
    ["aaaaaaaaaaaaaaaa", /el secreto repite un mismo carácter/],
    ["contraseñasecreta", /el secreto se adivina con facilidad/],
    ["passwordpassword", /el secreto se adivina con facilidad/],
    ["ofertas-2026-secreto", /el secreto se adivina con facilidad/],
    ["1234567890123456", /el secreto se adivina con facilidad/],
    [`${"9f86d081884c7d659a2feaa0c55ad015"},bbbbbbbbbbbbbbbbbbbb`, /uno de los secretos repite/],
  ])("SESSION_SECRET=%s is refused, with the command that makes a good one", (secret, reason) => {
    expect(() => loadConfig({ ...base, SESSION_SECRET: secret })).toThrow(reason);
    expect(() => loadConfig({ ...base, SESSION_SECRET: secret })).toThrow(/genera uno al azar con «openssl rand -hex 32»/);
  });

  it("SESSION_SECRET with no secret in it (commas, spaces) is the Spanish line, not a stack trace", () => {
    expect(() => loadConfig({ ...base, SESSION_SECRET: ",,," })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, SESSION_SECRET: " , ," })).toThrow(/SESSION_SECRET: no contiene ningún secreto/);
  });

  it("takes what the command makes, and the long phrases the tests use", () => {
    for (const secret of [
      randomBytes(32).toString("hex"),
      randomBytes(24).toString("base64url"),
      "test-secret-for-the-api-suite-0123456789",
    ])
      expect(loadConfig({ ...base, SESSION_SECRET: secret }).sessionSecrets).toEqual([secret]);
    expect(secretBits(randomBytes(32).toString("hex"))).toBeGreaterThan(200);
  });

  it("JWT_SECRET too", () => {
    expect(() => loadConfig({ ...base, SESSION_SECRET: randomBytes(32).toString("hex"), JWT_SECRET: "a".repeat(40) })).toThrow(
      /JWT_SECRET: el secreto repite un mismo carácter/,
    );
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
