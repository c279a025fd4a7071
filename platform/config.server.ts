import { createHmac, createPrivateKey, randomBytes } from "node:crypto";
import { logger } from "#platform/logger.server";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { paymentMethodsOf, type PaymentMethod } from "#rules/payments";
import { REDSYS_ENV_FIELDS, redsysSettings, type RedsysSettings } from "#platform/config-redsys.server";

/** The WHATWG Fetch "bad ports": Node's fetch refuses them, including our loopback API calls. */
const FETCH_BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(3000)
      .refine(
        (port) => !FETCH_BLOCKED_PORTS.has(port),
        (port) => ({
          message: `port ${port} is one that fetch() refuses to connect to (WHATWG "bad ports"); the storefront calls its own API on it, so every page would fail. Choose another, e.g. 3000.`,
        }),
      ),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "debe empezar por postgres:// o postgresql://")
        .optional(),
    ),
    /**
     * 1 (default): the server applies pending migrations as it starts. 0: `npm run migrate` is a
     * deploy step of its own, and a server that finds migrations pending refuses to start.
     */
    MIGRATE_ON_START: z
      .enum(["0", "1", "false", "true", "off", "on", "no", "yes"])
      .default("1")
      .transform((v) => ["1", "true", "on", "yes"].includes(v)),
    /** Connections each server process keeps to PostgreSQL (DATABASE_URL). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
    /** PostgreSQL: seconds to wait for a new connection before the request answers 503. */
    DATABASE_CONNECT_TIMEOUT: z.coerce.number().int().min(1).max(300).default(5),
    /** PostgreSQL: milliseconds one statement may run before the server cancels it (0: no limit). */
    DATABASE_STATEMENT_TIMEOUT: z.coerce.number().int().min(0).default(15_000),
    /** PostgreSQL: milliseconds a transaction may sit idle before the server ends its session (0: no limit). */
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT: z.coerce.number().int().min(0).default(30_000),
    /** Milliseconds the storefront waits for one API answer. */
    API_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    /** Seconds a SIGTERM may take to finish what is in flight before the process exits with 1. */
    SHUTDOWN_TIMEOUT: z.coerce.number().min(1).max(600).default(25),
    /** Bearer token for GET /metrics from other machines (loopback needs none); unset, only loopback. */
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
    /** Error reporting to Sentry (or a compatible service), server and browser; unset, none (docs/monitoring.md). */
    SENTRY_DSN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine(isSentryDsn, "debe ser el DSN de Sentry, https://clave@servidor/proyecto (p. ej. https://abc123@o1.ingest.sentry.io/42)")
        .optional(),
    ),
    /** The environment events are filed under; default production in a deployment, else NODE_ENV. */
    SENTRY_ENVIRONMENT: optionalString,
    /** The release events are filed under (e.g. the commit being deployed). */
    SENTRY_RELEASE: optionalString,
    /** Log threshold: fatal, error, warn, info, debug, trace or silent. */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    API_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
    ALLOWED_HOSTS: optionalString,
    /** More Content-Security-Policy sources, e.g. "script-src https://x.example; frame-src https://y.example". */
    CSP_EXTRA_SOURCES: optionalString,
    SESSION_SECRET: optionalString,
    SUPPORT_EMAIL: z.string().email().default("ayuda@ofertas.es"),
    BUSINESS_EMAIL: z.string().email().default("empresas@ofertas.es"),
    /** Required in a deployment; elsewhere the sandbox (loadConfig). */
    PAYMENT_PROVIDER: z.preprocess(emptyToUndefined, z.enum(["sandbox", "paypal", "rapyd", "allpay", "redsys"]).optional()),
    /** "1": the demo catalogue, sales and customer in a deployment too (never its staff or partner). */
    DEMO_DATA: z.preprocess(emptyToUndefined, z.enum(["0", "1"], { message: "debe ser 1 (con datos de demostración) o 0" }).optional()),
    /** Whose X-Forwarded-For to believe: a hop count, addresses/CIDRs separated by commas, or loopback. */
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .default("loopback")
        .refine(
          (value) => trustProxySetting(value) !== null,
          "debe ser un número de saltos (1), una lista de direcciones o redes (10.0.0.0/8, 192.168.1.7) o loopback",
        ),
    ),
    PAYPAL_CLIENT_ID: optionalString,
    PAYPAL_CLIENT_SECRET: optionalString,
    PAYPAL_WEBHOOK_ID: optionalString,
    PAYPAL_API_BASE: z.string().url().default("https://api-m.sandbox.paypal.com"),
    RAPYD_ACCESS_KEY: optionalString,
    RAPYD_SECRET_KEY: optionalString,
    RAPYD_API_BASE: z.string().url().default("https://sandboxapi.rapyd.net"),
    ALLPAY_LOGIN: optionalString,
    ALLPAY_API_KEY: optionalString,
    ALLPAY_API_BASE: z.string().url().default("https://allpay.to/app/"),
    ...REDSYS_ENV_FIELDS,
    /** How long one call to a payment provider may take before the sale gives up on it. */
    PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
    RESERVATION_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    // Mail: with no SMTP_URL every message is written as an .eml file under DATA_DIR/mail/.
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\/[^/]+/, "debe ser smtp://usuario:clave@servidor:puerto o smtps://…")
        .optional(),
    ),
    MAIL_FROM: z
      .string()
      .trim()
      .regex(
        /^(.*<[^\s@<>]+@[^\s@<>]+\.[a-z]{2,}>|[^\s@<>]+@[^\s@<>]+\.[a-z]{2,})$/i,
        "debe ser una dirección, por ejemplo «ofertas <no-responder@ofertas.es>»",
      )
      .default("ofertas <no-responder@ofertas.es>"),
    // DKIM: the three together sign every message (docs/mail.md); the key as PEM, line breaks as \n.
    MAIL_DKIM_DOMAIN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "debe ser un dominio, por ejemplo ofertas.es")
        .optional(),
    ),
    MAIL_DKIM_SELECTOR: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(
          /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i,
          "debe ser un selector DNS, por ejemplo correo2026",
        )
        .optional(),
    ),
    MAIL_DKIM_PRIVATE_KEY: optionalString,
    FEEDBACK_DELAY_DAYS: z.coerce.number().min(0).max(365).default(3),
    DIGEST_SCHEDULE: z.enum(["off", "daily", "weekly"]).default("weekly"),
    // Third parties: each is off until its key is set, and then only after consent.
    ANALYTICS_API_KEY: optionalString,
    ANALYTICS_HTTP_API_URL: z.string().url().default("https://api.eu.amplitude.com/2/httpapi"),
    SESSION_REPLAY_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
    GTM_ID: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^GTM-[A-Z0-9]{4,12}$/, "debe tener la forma GTM-XXXXXXX")
        .optional(),
    ),
    MAPS_TILES_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^https:\/\/.*\{z\}.*\{x\}.*\{y\}/, "debe ser https://… con {z}, {x} e {y}")
        .optional(),
    ),
    MAPS_API_KEY: optionalString,
    MAPS_ATTRIBUTION: z.string().default("© OpenStreetMap contributors"),
    MAPS_STATIC_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^https?:\/\/.*\{lat\}.*\{lon\}/, "debe ser una URL con {lat} y {lon}")
        .optional(),
    ),
    CAPTCHA_SITE_KEY: optionalString,
    CAPTCHA_SECRET: optionalString,
    JWT_SECRET: optionalString,
    JWT_ACCESS_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .default(15 * 60),
    JWT_REFRESH_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(365 * 24 * 3600)
      .default(30 * 24 * 3600),
    JWT_REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(20),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    APPLE_CLIENT_ID: optionalString,
    /** Either a client-secret JWT made by hand (it lasts at most 6 months) … */
    APPLE_CLIENT_SECRET: optionalString,
    /** … or the key it is made from, and the server signs a fresh one itself. */
    APPLE_TEAM_ID: optionalString,
    APPLE_KEY_ID: optionalString,
    APPLE_PRIVATE_KEY: optionalString,
    FACEBOOK_APP_ID: optionalString,
    FACEBOOK_APP_SECRET: optionalString,
    CATALOGUE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    /** 1: the storefront parses every API answer with the contract's schemas in production too (the browser suite sets it). */
    CONTRACT_CHECK: z.enum(["0", "1"]).optional(),
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  })
  .superRefine((env, ctx) => {
    // A deployment (PUBLIC_URL https://…) never runs on a made-up secret or on payments nobody chose.
    if (!isDeploymentUrl(env.PUBLIC_URL)) return;
    if (!env.SESSION_SECRET)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SESSION_SECRET"],
        message:
          "obligatorio en un despliegue (PUBLIC_URL https://…): uno o más secretos de 16 caracteres o más (mejor 32 al azar), separados por comas",
      });
    if (!env.PAYMENT_PROVIDER)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["PAYMENT_PROVIDER"],
        message:
          "obligatorio en un despliegue (PUBLIC_URL https://…): paypal, rapyd, allpay o redsys (sandbox solo para un sitio de pruebas)",
      });
  });

/** A Sentry DSN: http(s)://<public key>@<host>[:port]/[path/]<project id>. */
export function isSentryDsn(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      /^https?:$/.test(url.protocol) && /^[A-Za-z0-9]+$/.test(url.username) && !url.search && /^\/(?:[^?#]*\/)?\d+$/.test(url.pathname)
    );
  } catch {
    return false;
  }
}

/** A deployment is a server the public reaches over https; anything else is a try-out. */
const isDeploymentUrl = (url: string | undefined) => url?.startsWith("https://") ?? false;

const TRUST_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY as Express's "trust proxy" takes it: a hop count, or a list of addresses, CIDR
 * ranges and the names loopback, linklocal and uniquelocal. null when it is neither.
 */
export function trustProxySetting(value: string): number | string[] | null {
  if (/^\d+$/.test(value)) return Number(value) <= 32 ? Number(value) : null;
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = (entry: string) => {
    if (TRUST_NAMES.has(entry)) return true;
    const [address, bits, ...rest] = entry.split("/");
    const family = isIP(address);
    if (!family || rest.length) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  if (!entries.length || !entries.every(valid)) return null;
  // The storefront calls its own API over loopback, passing on the address it worked out.
  return entries.includes("loopback") ? entries : [...entries, "loopback"];
}

export type Env = z.infer<typeof EnvSchema>;

export type Config = Omit<Env, "PAYMENT_PROVIDER"> & {
  PAYMENT_PROVIDER: NonNullable<Env["PAYMENT_PROVIDER"]>;
  /** PUBLIC_URL is https://…: secrets and payments are required, demo data is opt-in. */
  isDeployment: boolean;
  /** Load the demo catalogue, its sales and the demo customer into an empty database. */
  demoData: boolean;
  /** The demo staff and partner accounts too: never in a deployment. */
  demoStaff: boolean;
  /** A deployment on the payment sandbox (or Redsys's test environment): every page and mail says nothing is charged. */
  sandboxNotice: boolean;
  /** Redsys's settings when its keys are set (platform/config-redsys.server.ts). */
  redsys: RedsysSettings | null;
  /** What the buyer chooses between at checkout with the current provider (empty: no choice). */
  paymentMethods: PaymentMethod[];
  /** Express's "trust proxy" (TRUST_PROXY). */
  trustProxy: number | string[];
  /** Absolute data directory. */
  dataDir: string;
  /** Secrets for cookies, newest first. */
  sessionSecrets: string[];
  /** Where the storefront reaches /api/v0. */
  apiUrl: string;
  /** HMAC key of the API's JWTs: JWT_SECRET, or derived from the newest cookie secret. */
  jwtSecret: string;
  /** nodemailer's `dkim` option when MAIL_DKIM_* are set, else null (messages go unsigned). */
  mailDkim: MailDkim | null;
  isProduction: boolean;
  /** The storefront parses the API's answers with the contract's schemas: off in production unless CONTRACT_CHECK=1. */
  contractCheck: boolean;
};

export type MailDkim = { domainName: string; keySelector: string; privateKey: string };

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Configuración no válida:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const isDeployment = isDeploymentUrl(env.PUBLIC_URL);
  const paymentProvider = env.PAYMENT_PROVIDER ?? "sandbox";
  const dataDir = path.resolve(env.DATA_DIR);
  const sessionSecrets = env.SESSION_SECRET
    ? env.SESSION_SECRET.split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [devSecret(dataDir)];
  if (sessionSecrets.some((s) => s.length < 16)) {
    throw new ConfigError("Configuración no válida:\n  SESSION_SECRET: cada secreto necesita al menos 16 caracteres");
  }
  if (env.MAPS_TILES_URL?.includes("{key}") && !env.MAPS_API_KEY) {
    throw new ConfigError("Configuración no válida:\n  MAPS_API_KEY: MAPS_TILES_URL lleva {key} y falta la clave");
  }
  if (Boolean(env.CAPTCHA_SITE_KEY) !== Boolean(env.CAPTCHA_SECRET)) {
    throw new ConfigError("Configuración no válida:\n  CAPTCHA_SITE_KEY y CAPTCHA_SECRET van juntas: pon las dos o ninguna");
  }
  const dkim = mailDkimSettings(env);
  if (typeof dkim === "string") throw new ConfigError(`Configuración no válida:\n  ${dkim}`);
  const socialProblem = socialSettingsProblem(env);
  if (socialProblem) throw new ConfigError(`Configuración no válida:\n  ${socialProblem}`);
  if (env.JWT_SECRET && env.JWT_SECRET.length < 32) {
    throw new ConfigError("Configuración no válida:\n  JWT_SECRET: necesita al menos 32 caracteres");
  }
  const redsys = redsysSettings(env, { isDeployment });
  if (Array.isArray(redsys)) throw new ConfigError(`Configuración no válida:\n${redsys.map((line) => `  ${line}`).join("\n")}`);
  const jwtSecret = env.JWT_SECRET ?? createHmac("sha256", sessionSecrets[0]).update("ofertas:jwt").digest("hex");
  const localHost = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return {
    ...env,
    PAYMENT_PROVIDER: paymentProvider,
    isDeployment,
    demoData: isDeployment ? env.DEMO_DATA === "1" : env.DEMO_DATA !== "0",
    demoStaff: !isDeployment && env.DEMO_DATA !== "0",
    sandboxNotice: isDeployment && (paymentProvider === "sandbox" || (paymentProvider === "redsys" && redsys?.environment === "test")),
    redsys,
    paymentMethods: paymentMethodsOf(paymentProvider, { bizum: redsys?.bizum ?? false }),
    trustProxy: trustProxySetting(env.TRUST_PROXY) ?? ["loopback"],
    dataDir,
    sessionSecrets,
    jwtSecret,
    mailDkim: dkim,
    apiUrl: (env.API_URL ?? `http://${localHost}:${env.PORT}/api/v0`).replace(/\/$/, ""),
    isProduction: env.NODE_ENV === "production",
    contractCheck: env.CONTRACT_CHECK ? env.CONTRACT_CHECK === "1" : env.NODE_ENV !== "production",
  };
}

/**
 * A provider half configured is a mistake to stop on, not a button that silently never appears:
 * each client id needs its secret (Apple: a client secret, or the team id, key id and .p8 key
 * that sign one).
 */
function socialSettingsProblem(env: Env): string | null {
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET))
    return "GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET van juntas: pon las dos o ninguna";
  if (Boolean(env.FACEBOOK_APP_ID) !== Boolean(env.FACEBOOK_APP_SECRET))
    return "FACEBOOK_APP_ID y FACEBOOK_APP_SECRET van juntas: pon las dos o ninguna";
  const appleKey = [env.APPLE_TEAM_ID, env.APPLE_KEY_ID, env.APPLE_PRIVATE_KEY];
  if (appleKey.some(Boolean) && !appleKey.every(Boolean))
    return "APPLE_TEAM_ID, APPLE_KEY_ID y APPLE_PRIVATE_KEY van juntas: pon las tres o ninguna";
  const appleSecret = Boolean(env.APPLE_CLIENT_SECRET) || appleKey.every(Boolean);
  if (Boolean(env.APPLE_CLIENT_ID) !== appleSecret)
    return "APPLE_CLIENT_ID necesita APPLE_CLIENT_SECRET, o APPLE_TEAM_ID, APPLE_KEY_ID y APPLE_PRIVATE_KEY (y al revés)";
  if (env.APPLE_PRIVATE_KEY && !/-----BEGIN PRIVATE KEY-----/.test(env.APPLE_PRIVATE_KEY.replace(/\\n/g, "\n"))) {
    return "APPLE_PRIVATE_KEY: debe ser el contenido del fichero .p8 de Apple (-----BEGIN PRIVATE KEY-----…)";
  }
  return null;
}

/** The DKIM settings, all three or none; a problem is its message. RSA only: what nodemailer signs with. */
function mailDkimSettings(env: Env): MailDkim | null | string {
  const { MAIL_DKIM_DOMAIN: domainName, MAIL_DKIM_SELECTOR: keySelector, MAIL_DKIM_PRIVATE_KEY: key } = env;
  if (!domainName && !keySelector && !key) return null;
  if (!domainName || !keySelector || !key)
    return "MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR y MAIL_DKIM_PRIVATE_KEY van juntas: pon las tres o ninguna";
  const privateKey = key.replace(/\\n/g, "\n").trim();
  let bits = 0;
  try {
    const parsed = createPrivateKey(privateKey);
    bits = parsed.asymmetricKeyType === "rsa" ? (parsed.asymmetricKeyDetails?.modulusLength ?? 0) : 0;
  } catch {
    return "MAIL_DKIM_PRIVATE_KEY: debe ser una clave privada RSA en PEM (-----BEGIN PRIVATE KEY----- o -----BEGIN RSA PRIVATE KEY-----)";
  }
  if (bits < 1024) return "MAIL_DKIM_PRIVATE_KEY: debe ser una clave RSA de 1024 bits o más (mejor 2048)";
  return { domainName, keySelector, privateKey };
}

/** Generated once per data directory, so a dev restart keeps everyone's cookies valid. */
function devSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 16) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  // Written whole or not at all: a kill between open and write must not leave an empty secret
  // that stops every later start.
  const scratch = `${file}.${process.pid}.tmp`;
  writeFileSync(scratch, secret, { mode: 0o600 });
  renameSync(scratch, file);
  return secret;
}

/** For commands (the server, scripts): a wrong setting is its message and exit code 1, no stack trace. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
}
