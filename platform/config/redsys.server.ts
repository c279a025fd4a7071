/**
 * Redsys's settings (the Spanish banks' virtual POS, cards and Bizum), read with the rest of the
 * environment by loadConfig and checked here, apart from the other providers' keys.
 */
import { z } from "zod";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

export const REDSYS_ENVIRONMENTS = { test: "https://sis-t.redsys.es:25443", live: "https://sis.redsys.es" } as const;
export type RedsysEnvironment = keyof typeof REDSYS_ENVIRONMENTS;

/** The example key of Redsys's documentation: known to everyone, so never a live shop's key. */
export const REDSYS_PUBLIC_TEST_KEY = "sq7HjrUOBfKmC576ILgskD5srU870gJ7";

/** Merged into the environment's schema (platform/config.server.ts). */
export const REDSYS_ENV_FIELDS = {
  /** The merchant's code (FUC, Ds_Merchant_MerchantCode): 9 digits, from the bank. */
  REDSYS_MERCHANT_CODE: optional(
    z
      .string()
      .trim()
      .regex(/^\d{9}$/, "debe ser el número de comercio (FUC) que da el banco: 9 cifras, por ejemplo 999008881"),
  ),
  /** The terminal number (Ds_Merchant_Terminal): 1 to 3 digits. */
  REDSYS_TERMINAL: optional(
    z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, "debe ser el número de terminal que da el banco: de 1 a 3 cifras, por ejemplo 1"),
  ),
  /** The merchant's secret key (SHA-256) from Redsys's administration module: 24 bytes in base64. */
  REDSYS_SECRET_KEY: optional(
    z
      .string()
      .trim()
      .refine(
        isRedsysKey,
        "debe ser la clave secreta de comercio (SHA-256) del módulo de administración de Redsys: 32 caracteres en base64",
      ),
  ),
  /** test: sis-t.redsys.es (no money moves); live: sis.redsys.es. */
  REDSYS_ENVIRONMENT: optional(z.enum(["test", "live"], { message: "debe ser test (entorno de pruebas) o live (cobros reales)" })),
  /** Another address for Redsys's servers (a stand-in for tests); default: the environment's. */
  REDSYS_API_BASE: optional(z.string().url("debe ser una URL, por ejemplo https://sis-t.redsys.es:25443")),
  /** 1: checkout offers «Pagar con Bizum» beside «Pagar con tarjeta» (the terminal must have Bizum). */
  REDSYS_BIZUM: optional(z.enum(["0", "1"], { message: "debe ser 1 (ofrecer Bizum) o 0" })),
};

type RedsysEnv = { [K in keyof typeof REDSYS_ENV_FIELDS]?: z.infer<(typeof REDSYS_ENV_FIELDS)[K]> };

export type RedsysSettings = {
  merchantCode: string;
  /** As Redsys writes it in its answers: without leading zeros ("001" → "1"). */
  terminal: string;
  /** base64, 24 bytes: the 3DES key each order's signing key is derived from. */
  secretKey: string;
  environment: RedsysEnvironment;
  /** Origin of Redsys's servers: /sis/realizarPago and /sis/rest/trataPeticionREST live under it. */
  apiBase: string;
  bizum: boolean;
};

/** 24 bytes (3DES) written in base64: 32 characters, no padding. */
export function isRedsysKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{32}$/.test(value) && Buffer.from(value, "base64").length === 24;
}

/**
 * The Redsys settings, null when none are set, or the lines that stop the start: a shop on Redsys
 * needs all four, and keys for it while another provider sells need them too (old sales are
 * refunded through it). A deployment never talks to a stand-in, and never sells with the public
 * example key.
 */
export function redsysSettings(
  env: RedsysEnv & { PAYMENT_PROVIDER?: string },
  { isDeployment }: { isDeployment: boolean },
): RedsysSettings | null | string[] {
  const required = ["REDSYS_MERCHANT_CODE", "REDSYS_TERMINAL", "REDSYS_SECRET_KEY", "REDSYS_ENVIRONMENT"] as const;
  const onRedsys = env.PAYMENT_PROVIDER === "redsys";
  const anySet = required.some((name) => env[name] !== undefined);
  if (!onRedsys && !anySet) {
    return env.REDSYS_BIZUM === "1"
      ? ["REDSYS_BIZUM: Bizum se cobra con Redsys: pon PAYMENT_PROVIDER=redsys y sus claves, o quítalo"]
      : null;
  }
  const why = onRedsys ? "obligatorio con PAYMENT_PROVIDER=redsys" : "las claves de Redsys van juntas";
  const problems = required.filter((name) => env[name] === undefined).map((name) => `${name}: ${why} (${REDSYS_HELP[name]})`);
  if (env.REDSYS_BIZUM === "1" && !onRedsys) problems.push("REDSYS_BIZUM: Bizum solo se ofrece con PAYMENT_PROVIDER=redsys");
  if (isDeployment && env.REDSYS_API_BASE && !env.REDSYS_API_BASE.startsWith("https://")) {
    problems.push("REDSYS_API_BASE: en un despliegue debe ser https:// (o quítalo: el entorno elige la dirección de Redsys)");
  }
  if (env.REDSYS_ENVIRONMENT === "live" && env.REDSYS_SECRET_KEY === REDSYS_PUBLIC_TEST_KEY) {
    problems.push(
      "REDSYS_SECRET_KEY: es la clave pública de pruebas de la documentación de Redsys; con live pon la clave real de tu terminal",
    );
  }
  if (problems.length) return problems;
  const environment = env.REDSYS_ENVIRONMENT!;
  return {
    merchantCode: env.REDSYS_MERCHANT_CODE!,
    terminal: String(Number(env.REDSYS_TERMINAL)),
    secretKey: env.REDSYS_SECRET_KEY!,
    environment,
    apiBase: (env.REDSYS_API_BASE ?? REDSYS_ENVIRONMENTS[environment]).replace(/\/+$/, ""),
    bizum: env.REDSYS_BIZUM === "1",
  };
}

const REDSYS_HELP: Record<"REDSYS_MERCHANT_CODE" | "REDSYS_TERMINAL" | "REDSYS_SECRET_KEY" | "REDSYS_ENVIRONMENT", string> = {
  REDSYS_MERCHANT_CODE: "el número de comercio, FUC, de 9 cifras",
  REDSYS_TERMINAL: "el número de terminal, por ejemplo 1",
  REDSYS_SECRET_KEY: "la clave secreta SHA-256 del módulo de administración de Redsys",
  REDSYS_ENVIRONMENT: "test o live",
};
