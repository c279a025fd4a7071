// @vitest-environment node
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, shopLegalFromEnv, TRY_OUT_SHOP_LEGAL } from "#platform/config.server";

const freshDir = () => mkdtempSync(path.join(tmpdir(), "ofertas-config-"));
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
const identity = {
  SHOP_LEGAL_NAME: "Ofertas Marketplace S.L.",
  SHOP_TAX_ID: "b-1234567-4",
  SHOP_ADDRESS: "Calle de Alcalá 1, 28014 Madrid",
};

describe("the shop's legal identity on statements (SHOP_LEGAL_*)", () => {
  it("a try-out gets a made-up identity that says so", () => {
    expect(loadConfig({ NODE_ENV: "test", DATA_DIR: freshDir() }).shopLegal).toEqual(TRY_OUT_SHOP_LEGAL);
    expect(TRY_OUT_SHOP_LEGAL.name).toMatch(/sin validez fiscal/);
  });

  it("a deployment without it starts, with none: statements are not issued on a made-up tax number", () => {
    expect(loadConfig({ ...deployment, DATA_DIR: freshDir() }).shopLegal).toBeNull();
    expect(shopLegalFromEnv({ ...deployment })).toBeNull();
  });

  it("takes the three together, the tax number normalised", () => {
    const expected = { name: "Ofertas Marketplace S.L.", tax_id: "B12345674", address: "Calle de Alcalá 1, 28014 Madrid" };
    expect(loadConfig({ ...deployment, ...identity, DATA_DIR: freshDir() }).shopLegal).toEqual(expected);
    expect(shopLegalFromEnv({ ...deployment, ...identity })).toEqual(expected);
  });

  it("refuses half of it, or a tax number whose check letter is wrong, naming the variables", () => {
    const { SHOP_ADDRESS: _, ...half } = identity;
    expect(() => loadConfig({ ...deployment, ...half, DATA_DIR: freshDir() })).toThrow(
      /SHOP_LEGAL_NAME, SHOP_TAX_ID y SHOP_ADDRESS van juntas/,
    );
    expect(() => loadConfig({ ...deployment, ...identity, SHOP_TAX_ID: "B12345670", DATA_DIR: freshDir() })).toThrow(
      /SHOP_TAX_ID: no es un NIF o CIF válido/,
    );
  });
});
