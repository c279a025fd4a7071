import { createHash } from "node:crypto";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { createAllpayProvider } from "./allpay";
import { createPaypalProvider } from "./paypal";
import { createRapydProvider } from "./rapyd";
import { createRedsysProvider } from "./redsys";
import { createSandboxProvider } from "./sandbox";
import type { PaymentProvider, PaymentProviderName } from "./types";

export type PaymentProviders = {
  /** Every provider this process can talk to, by name (old sales may use one that is not current). */
  all: Map<PaymentProviderName, PaymentProvider>;
  /** The provider new sales use. */
  current: PaymentProvider;
};

/** Derived from the session secret so the sandbox needs no configuration of its own. */
export function sandboxSecret(config: Config): string {
  return createHash("sha256").update(`sandbox-webhook:${config.sessionSecrets[0]}`).digest("hex");
}

/** The sandbox is always there; real providers join when their keys are in the environment. */
export function createPaymentProviders(config: Config, db: Database): PaymentProviders {
  const all = new Map<PaymentProviderName, PaymentProvider>();
  all.set("sandbox", createSandboxProvider(db, sandboxSecret(config)));
  if (config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET && config.PAYPAL_WEBHOOK_ID) {
    all.set(
      "paypal",
      createPaypalProvider({
        clientId: config.PAYPAL_CLIENT_ID,
        clientSecret: config.PAYPAL_CLIENT_SECRET,
        webhookId: config.PAYPAL_WEBHOOK_ID,
        apiBase: config.PAYPAL_API_BASE,
        timeoutMs: config.PAYMENT_TIMEOUT_MS,
      }),
    );
  }
  if (config.RAPYD_ACCESS_KEY && config.RAPYD_SECRET_KEY) {
    all.set(
      "rapyd",
      createRapydProvider({
        accessKey: config.RAPYD_ACCESS_KEY,
        secretKey: config.RAPYD_SECRET_KEY,
        apiBase: config.RAPYD_API_BASE,
        timeoutMs: config.PAYMENT_TIMEOUT_MS,
      }),
    );
  }
  if (config.ALLPAY_LOGIN && config.ALLPAY_API_KEY) {
    all.set(
      "allpay",
      createAllpayProvider({
        login: config.ALLPAY_LOGIN,
        apiKey: config.ALLPAY_API_KEY,
        apiBase: config.ALLPAY_API_BASE,
        timeoutMs: config.PAYMENT_TIMEOUT_MS,
      }),
    );
  }
  if (config.redsys) {
    all.set("redsys", createRedsysProvider(db, { ...config.redsys, timeoutMs: config.PAYMENT_TIMEOUT_MS }));
  }
  const current = all.get(config.PAYMENT_PROVIDER);
  if (!current) {
    throw new Error(`PAYMENT_PROVIDER=${config.PAYMENT_PROVIDER} necesita sus claves en el entorno.`);
  }
  return { all, current };
}
