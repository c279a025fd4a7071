/**
 * The payment settings checked at start, with the rest of the configuration: before the database
 * is opened or migrated, a provider chosen without its keys stops the server with one Spanish line.
 */

type PaymentEnv = {
  PAYMENT_PROVIDER?: "sandbox" | "paypal" | "rapyd" | "allpay" | "redsys";
  PAYMENT_TIMEOUT_MS: number;
  API_TIMEOUT_MS: number;
} & Partial<Record<(typeof PROVIDER_KEYS)[keyof typeof PROVIDER_KEYS][number], string>>;

/** The keys each real provider needs before it can open a payment (api/payments/registry.ts). */
export const PROVIDER_KEYS = {
  sandbox: [],
  paypal: ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"],
  rapyd: ["RAPYD_ACCESS_KEY", "RAPYD_SECRET_KEY"],
  allpay: ["ALLPAY_LOGIN", "ALLPAY_API_KEY"],
  // Its four settings and their formats are checked by platform/config/redsys.server.ts.
  redsys: [],
} as const;

const inWords = (names: readonly string[]) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} y ${names.at(-1)}` : names[0]);

/** The chosen provider without one of its keys: the line that says which. */
export function paymentKeysProblem(env: PaymentEnv): string | null {
  const provider = env.PAYMENT_PROVIDER ?? "sandbox";
  const needed = PROVIDER_KEYS[provider];
  const missing = needed.filter((name) => !env[name]);
  if (!missing.length) return null;
  return `PAYMENT_PROVIDER=${provider} necesita ${inWords(needed)}; ${missing.length > 1 ? "faltan" : "falta"} ${inWords(missing)}`;
}

/**
 * What the provider may take, at least a second under the storefront's wait for the API: past the
 * storefront's wait the buyer would get the generic 503 page while the sale is still open.
 */
export const PAYMENT_TIMEOUT_MARGIN_MS = 1_000;
const DEFAULT_PAYMENT_TIMEOUT_MS = 10_000;

/**
 * PAYMENT_TIMEOUT_MS: as set (refused when it does not fit under API_TIMEOUT_MS), or, unset, 10 s
 * or less so that it fits.
 */
export function paymentTimeout(env: PaymentEnv, source: Record<string, string | undefined>): number | string {
  const ceiling = env.API_TIMEOUT_MS - PAYMENT_TIMEOUT_MARGIN_MS;
  if (!source.PAYMENT_TIMEOUT_MS?.trim()) return Math.max(50, Math.min(DEFAULT_PAYMENT_TIMEOUT_MS, ceiling));
  if (env.PAYMENT_TIMEOUT_MS <= ceiling) return env.PAYMENT_TIMEOUT_MS;
  return (
    `PAYMENT_TIMEOUT_MS (${env.PAYMENT_TIMEOUT_MS}) debe quedar al menos ${PAYMENT_TIMEOUT_MARGIN_MS} ms por debajo de ` +
    `API_TIMEOUT_MS (${env.API_TIMEOUT_MS}): la tienda dejaría de esperar al pago antes que el proveedor. ` +
    `Baja PAYMENT_TIMEOUT_MS a ${Math.max(50, ceiling)} o sube API_TIMEOUT_MS a ${env.PAYMENT_TIMEOUT_MS + PAYMENT_TIMEOUT_MARGIN_MS}`
  );
}
