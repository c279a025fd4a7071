import { createHmac } from "node:crypto";
import { logger } from "#platform/logger.server";
import path from "node:path";
import { z } from "zod";
import { paymentMethodsOf, type PaymentMethod } from "#rules/payments";
import { REDSYS_ENV_FIELDS, redsysSettings, type RedsysSettings } from "#platform/config/redsys.server";
import { trustProxySetting } from "#platform/config/addresses.server";
import { parseReminderDays } from "#rules/reminders";
import { deploymentProblems, isDeployment as isDeploymentSetting } from "#platform/config/deployment.server";
import { mailDkimSettings, type MailDkim } from "#platform/config/mail-dkim.server";
import { OPERATIONS_ENV, operationsProblems, operationsSettings, type OperationsSettings } from "#platform/config/operations.server";
import { paymentKeysProblem, paymentTimeout } from "#platform/config/payments.server";
import { jwtSecretProblem, sessionSecrets as sessionSecretsOf } from "#platform/config/secrets.server";
import { socialSettingsProblem } from "#platform/config/social.server";
import { FETCH_BLOCKED_PORTS, isSentryDsn } from "#platform/config/values.server";
import { DataDirExposedError, preparePrivateDataDir } from "#platform/data-dir.server";
import { SHOP_LEGAL_ENV, shopLegalIdentity, type ShopLegal } from "#platform/config/shop-legal.server";

export type { MailDkim };
export { shopLegalFromEnv, shopLegalIdentity, TRY_OUT_SHOP_LEGAL, type ShopLegal } from "#platform/config/shop-legal.server";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
/** A switch that is either "1" or unset (empty and "0" are unset). */
const onlyOne = (name: string, meaning: string) =>
  z.preprocess(
    (v) => (emptyToUndefined(v) === undefined || v === "0" ? undefined : v),
    z.literal("1", { errorMap: () => ({ message: `debe ser 1 (${meaning}) o no estar` }) }).optional(),
  );

/** A comma list of days from 1 to 365 ("30,7"), or empty for none. */
const reminderDays = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine(
      (text) => parseReminderDays(text) !== null,
      "debe ser una lista de días de 1 a 365 separados por comas, por ejemplo 30,7 (vacío: ninguno)",
    );

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
    /** The address buyers use. Not this machine (or DEPLOYMENT=1): a deployment (platform/config/deployment.server.ts). */
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
    /** "1": a deployment even on a loopback PUBLIC_URL (compose's staging site at http://localhost:3000). */
    DEPLOYMENT: onlyOne("DEPLOYMENT", "un despliegue aunque PUBLIC_URL sea esta máquina"),
    /** "1": a deployment may have an http:// PUBLIC_URL (a staging site behind a TLS proxy). */
    ALLOW_INSECURE_HTTP: onlyOne("ALLOW_INSECURE_HTTP", "se acepta un PUBLIC_URL http:// en un despliegue"),
    /** "1": a deployment without SMTP_URL writes its mail to DATA_DIR/mail/ and sends none. */
    MAIL_TO_FILES: onlyOne("MAIL_TO_FILES", "el correo se guarda en DATA_DIR/mail/ sin SMTP_URL"),
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
    // Reminders of unused coupons (rules/reminders.ts): days before expiry, days after paying; "" sends none.
    REMINDER_EXPIRY_DAYS: reminderDays("30,7"),
    REMINDER_BOOKING_DAYS: reminderDays("2"),
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
    ...OPERATIONS_ENV,
    ...SHOP_LEGAL_ENV,
  })
  .superRefine((env, ctx) => {
    // A deployment never runs on a made-up secret, on payments nobody chose, or on mail nobody gets.
    for (const { path, message } of deploymentProblems(env)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  });

export type Env = z.infer<typeof EnvSchema>;

type SiteConfig = Omit<Env, "PAYMENT_PROVIDER"> & {
  PAYMENT_PROVIDER: NonNullable<Env["PAYMENT_PROVIDER"]>;
  /** PUBLIC_URL is not this machine, or DEPLOYMENT=1: secrets, payments and mail are required, demo data is opt-in. */
  isDeployment: boolean;
  /** Load the demo catalogue, its sales and the demo customer into an empty database. */
  demoData: boolean;
  /** The demo staff and partner accounts too: never in a deployment. */
  demoStaff: boolean;
  /** A deployment on the payment sandbox (or Redsys's test environment): every page and mail says nothing is charged. */
  sandboxNotice: boolean;
  /** Redsys's settings when its keys are set (platform/config/redsys.server.ts). */
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
  /** Who the shop is on statements and invoices (SHOP_LEGAL_*); null in a deployment that has not said. */
  shopLegal: ShopLegal | null;
};

export type Config = SiteConfig & OperationsSettings;

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Configuración no válida:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const isDeployment = isDeploymentSetting(env);
  const paymentProvider = env.PAYMENT_PROVIDER ?? "sandbox";
  const dataDir = path.resolve(env.DATA_DIR);
  const sessionSecrets = sessionSecretsOf(env.SESSION_SECRET, dataDir);
  if (typeof sessionSecrets === "string") throw new ConfigError(`Configuración no válida:\n  ${sessionSecrets}`);
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
  const jwtProblem = jwtSecretProblem(env.JWT_SECRET);
  if (jwtProblem) throw new ConfigError(`Configuración no válida:\n  ${jwtProblem}`);
  const operations = runtimeSettings(env, source, isDeployment);
  const shopLegal = shopLegalIdentity(env, isDeployment);
  if (typeof shopLegal === "string") throw new ConfigError(`Configuración no válida:\n  ${shopLegal}`);
  const redsys = redsysSettings(env, { isDeployment });
  if (Array.isArray(redsys)) throw new ConfigError(`Configuración no válida:\n${redsys.map((line) => `  ${line}`).join("\n")}`);
  const jwtSecret = env.JWT_SECRET ?? createHmac("sha256", sessionSecrets[0]).update("ofertas:jwt").digest("hex");
  const localHost = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return {
    ...env,
    PAYMENT_PROVIDER: paymentProvider,
    ...operations,
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
    shopLegal,
  };
}

/**
 * The processes' settings and the payment provider's, checked together: every problem is named at
 * once, before the database is opened or migrated.
 */
function runtimeSettings(env: Env, source: NodeJS.ProcessEnv, isDeployment: boolean) {
  const timeoutMs = paymentTimeout(env, source);
  const problems = [
    ...operationsProblems(env, { isDeployment }),
    paymentKeysProblem(env),
    typeof timeoutMs === "string" ? timeoutMs : null,
  ].filter((problem): problem is string => Boolean(problem));
  if (problems.length) throw new ConfigError(`Configuración no válida:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  return { ...operationsSettings(env), PAYMENT_TIMEOUT_MS: timeoutMs as number };
}

/**
 * For commands (the server, scripts): a wrong setting is its message and exit code 1, no stack
 * trace. Everything they write (the embedded database, mail files, backups) is their user's alone,
 * whatever umask they were started with, in a DATA_DIR nobody else can open.
 */
export function loadConfigOrExit(): Config {
  if (process.platform !== "win32") process.umask(0o077);
  try {
    const config = loadConfig();
    preparePrivateDataDir(config.dataDir);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirExposedError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
}
