// @vitest-environment node
import { describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";

const base = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret-for-the-payments-config-0123456789",
  DATA_DIR: "/tmp/ofertas-test-unused",
} as const;

describe("PAYMENT_TIMEOUT_MS", () => {
  it("gives every payment provider call 10 s unless told otherwise", () => {
    expect(loadConfig(base).PAYMENT_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ ...base, PAYMENT_TIMEOUT_MS: "2500" }).PAYMENT_TIMEOUT_MS).toBe(2500);
  });

  it("refuses a value that is not a number of milliseconds in range, naming the variable", () => {
    for (const value of ["diez", "0", "-1", "1.5", "600000"]) {
      expect(() => loadConfig({ ...base, PAYMENT_TIMEOUT_MS: value }), value).toThrow(/PAYMENT_TIMEOUT_MS/);
    }
  });
});

describe("Redsys", () => {
  const redsys = {
    PAYMENT_PROVIDER: "redsys",
    REDSYS_MERCHANT_CODE: "999008881",
    REDSYS_TERMINAL: "001",
    REDSYS_SECRET_KEY: "sq7HjrUOBfKmC576ILgskD5srU870gJ7",
    REDSYS_ENVIRONMENT: "test",
  };

  it("reads the four settings; the environment picks Redsys's address; Bizum is off unless asked", () => {
    const config = loadConfig({ ...base, ...redsys });
    expect(config.redsys).toEqual({
      merchantCode: "999008881",
      terminal: "1",
      secretKey: "sq7HjrUOBfKmC576ILgskD5srU870gJ7",
      environment: "test",
      apiBase: "https://sis-t.redsys.es:25443",
      bizum: false,
    });
    expect(config.paymentMethods).toEqual(["card"]);
    const live = loadConfig({
      ...base,
      ...redsys,
      REDSYS_ENVIRONMENT: "live",
      REDSYS_SECRET_KEY: "Mk9m98IfEblmPfrpsawt7BmxObt98Jev",
      REDSYS_BIZUM: "1",
    });
    expect(live.redsys).toMatchObject({ apiBase: "https://sis.redsys.es", bizum: true });
    expect(live.paymentMethods).toEqual(["card", "bizum"]);
    expect(loadConfig(base).redsys).toBeNull();
    expect(loadConfig(base).paymentMethods).toEqual([]);
  });

  it("stops the start on a missing setting, with a Spanish line naming each one", () => {
    const error = (() => {
      try {
        loadConfig({ ...base, PAYMENT_PROVIDER: "redsys" });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    for (const name of ["REDSYS_MERCHANT_CODE", "REDSYS_TERMINAL", "REDSYS_SECRET_KEY", "REDSYS_ENVIRONMENT"]) {
      expect(error).toMatch(new RegExp(`${name}: obligatorio con PAYMENT_PROVIDER=redsys`));
    }
  });

  it("stops the start on a malformed setting, naming it", () => {
    const cases: [string, string][] = [
      ["REDSYS_MERCHANT_CODE", "99900888"],
      ["REDSYS_MERCHANT_CODE", "FUC999008"],
      ["REDSYS_TERMINAL", "0001"],
      ["REDSYS_TERMINAL", "uno"],
      ["REDSYS_SECRET_KEY", "sq7HjrUOBfKmC576ILgskD5srU870gJ"],
      ["REDSYS_SECRET_KEY", "sq7HjrUOBfKmC576ILgskD5srU870g!7"],
      ["REDSYS_SECRET_KEY", "c3E3SGpyVU9CZkttQzU3NklMZ3NrRDVzclU4NzBnSjc="],
      ["REDSYS_ENVIRONMENT", "produccion"],
      ["REDSYS_BIZUM", "si"],
      ["REDSYS_API_BASE", "sis-t.redsys.es"],
    ];
    for (const [name, value] of cases) {
      expect(() => loadConfig({ ...base, ...redsys, [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: debe`));
    }
  });

  it("keys for Redsys go together even when another provider sells, and Bizum needs Redsys", () => {
    expect(() => loadConfig({ ...base, REDSYS_MERCHANT_CODE: "999008881" })).toThrow(/REDSYS_SECRET_KEY: las claves de Redsys van juntas/);
    const { PAYMENT_PROVIDER: _current, ...keys } = redsys;
    expect(loadConfig({ ...base, ...keys }).redsys?.merchantCode).toBe("999008881");
    expect(() => loadConfig({ ...base, REDSYS_BIZUM: "1" })).toThrow(/REDSYS_BIZUM: Bizum se cobra con Redsys/);
    expect(() => loadConfig({ ...base, ...keys, REDSYS_BIZUM: "1" })).toThrow(
      /REDSYS_BIZUM: Bizum solo se ofrece con PAYMENT_PROVIDER=redsys/,
    );
  });

  it("a deployment: never the documentation's key with live, never a stand-in over http, and the test environment says so on every page", () => {
    const deployment = { ...base, PUBLIC_URL: "https://ofertas.example", SMTP_URL: "smtp://correo.ofertas.example:587", ...redsys };
    expect(() => loadConfig({ ...deployment, REDSYS_ENVIRONMENT: "live" })).toThrow(/REDSYS_SECRET_KEY: es la clave pública de pruebas/);
    expect(() => loadConfig({ ...deployment, REDSYS_API_BASE: "http://127.0.0.1:9999" })).toThrow(
      /REDSYS_API_BASE: en un despliegue debe ser https/,
    );
    expect(loadConfig(deployment).sandboxNotice).toBe(true);
    expect(
      loadConfig({ ...deployment, REDSYS_ENVIRONMENT: "live", REDSYS_SECRET_KEY: "Mk9m98IfEblmPfrpsawt7BmxObt98Jev" }).sandboxNotice,
    ).toBe(false);
  });
});
