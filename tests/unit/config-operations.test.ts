// @vitest-environment node
/**
 * Settings that would only fail once the server runs (a provider without its keys, a payment wait
 * longer than the page's, a process role the embedded database cannot have) stop the start with a
 * Spanish line naming the variable, before any database is opened.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";

const base: NodeJS.ProcessEnv = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret-for-the-operations-config-0123456789",
  DATA_DIR: "/tmp/ofertas-test-unused",
};
const deployment: NodeJS.ProcessEnv = {
  ...base,
  NODE_ENV: "production",
  PUBLIC_URL: "https://tienda.example",
  SMTP_URL: "smtp://correo.tienda.example:587",
  PAYMENT_PROVIDER: "sandbox",
};

describe("a payment provider is checked with its keys at start", () => {
  it.each<[string, Record<string, string>, RegExp]>([
    [
      "paypal",
      { PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secreto" },
      /PAYMENT_PROVIDER=paypal necesita .*PAYPAL_WEBHOOK_ID; falta PAYPAL_WEBHOOK_ID/,
    ],
    ["rapyd", {}, /PAYMENT_PROVIDER=rapyd necesita RAPYD_ACCESS_KEY y RAPYD_SECRET_KEY; faltan RAPYD_ACCESS_KEY y RAPYD_SECRET_KEY/],
    ["allpay", { ALLPAY_LOGIN: "tienda" }, /PAYMENT_PROVIDER=allpay necesita ALLPAY_LOGIN y ALLPAY_API_KEY; falta ALLPAY_API_KEY/],
  ])("%s without its keys is refused, naming the missing ones", (provider, keys, message) => {
    expect(() => loadConfig({ ...deployment, PAYMENT_PROVIDER: provider, ...keys })).toThrow(message);
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: provider, ...keys })).toThrow(message);
  });

  it("with every key it starts", () => {
    const config = loadConfig({ ...deployment, PAYMENT_PROVIDER: "rapyd", RAPYD_ACCESS_KEY: "a", RAPYD_SECRET_KEY: "b" });
    expect(config.PAYMENT_PROVIDER).toBe("rapyd");
  });
});

describe("PAYMENT_TIMEOUT_MS fits under API_TIMEOUT_MS", () => {
  it("set above it (or within a second of it) is refused, with both figures that would fit", () => {
    expect(() => loadConfig({ ...base, PAYMENT_TIMEOUT_MS: "20000" })).toThrow(
      /PAYMENT_TIMEOUT_MS \(20000\) debe quedar al menos 1000 ms por debajo de API_TIMEOUT_MS \(15000\).*Baja PAYMENT_TIMEOUT_MS a 14000 o sube API_TIMEOUT_MS a 21000/,
    );
    expect(() => loadConfig({ ...base, API_TIMEOUT_MS: "10500", PAYMENT_TIMEOUT_MS: "10000" })).toThrow(/PAYMENT_TIMEOUT_MS/);
    expect(loadConfig({ ...base, API_TIMEOUT_MS: "11000", PAYMENT_TIMEOUT_MS: "10000" }).PAYMENT_TIMEOUT_MS).toBe(10_000);
  });

  it("unset, it is 10 s, or less when the storefront waits less", () => {
    expect(loadConfig(base).PAYMENT_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ ...base, API_TIMEOUT_MS: "6000" }).PAYMENT_TIMEOUT_MS).toBe(5_000);
  });
});

describe("PROCESS_ROLE", () => {
  it("is all by default, and web or worker on PostgreSQL", () => {
    expect(loadConfig(base).processRole).toBe("all");
    const pg = { ...base, DATABASE_URL: "postgres://tienda@127.0.0.1/tienda" };
    expect(loadConfig({ ...pg, PROCESS_ROLE: "web" }).processRole).toBe("web");
    expect(loadConfig({ ...pg, PROCESS_ROLE: "worker" }).processRole).toBe("worker");
  });

  it("web or worker on the embedded database is refused: its one process does everything", () => {
    expect(() => loadConfig({ ...base, PROCESS_ROLE: "web" })).toThrow(/PROCESS_ROLE=web necesita DATABASE_URL/);
    expect(() => loadConfig({ ...base, PROCESS_ROLE: "cocina" })).toThrow(/PROCESS_ROLE: debe ser web/);
  });
});

describe("RATE_LIMIT_EXEMPT, METRICS_PORT and SHUTDOWN_DELAY_MS", () => {
  it("nobody is exempt from the per-address limits unless named, and never in a deployment", () => {
    expect(loadConfig(base).rateLimitExempt).toEqual([]);
    expect(loadConfig({ ...base, RATE_LIMIT_EXEMPT: "loopback, 10.1.0.0/16" }).rateLimitExempt).toEqual(["loopback", "10.1.0.0/16"]);
    expect(() => loadConfig({ ...base, RATE_LIMIT_EXEMPT: "todos" })).toThrow(/RATE_LIMIT_EXEMPT: debe ser loopback/);
    expect(() => loadConfig({ ...deployment, RATE_LIMIT_EXEMPT: "loopback" })).toThrow(/RATE_LIMIT_EXEMPT no se admite en un despliegue/);
  });

  it("the metrics port is another port, and the pause before a shutdown shorter than the shutdown", () => {
    expect(loadConfig({ ...base, METRICS_PORT: "9091" }).METRICS_PORT).toBe(9091);
    expect(() => loadConfig({ ...base, PORT: "3000", METRICS_PORT: "3000" })).toThrow(/METRICS_PORT debe ser otro puerto/);
    expect(loadConfig({ ...base, SHUTDOWN_DELAY_MS: "5000" }).SHUTDOWN_DELAY_MS).toBe(5_000);
    expect(() => loadConfig({ ...base, SHUTDOWN_DELAY_MS: "30000" })).toThrow(
      /SHUTDOWN_DELAY_MS \(30000\) debe ser menor que SHUTDOWN_TIMEOUT/,
    );
  });
});
