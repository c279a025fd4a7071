/**
 * How the server's processes run and are watched: their role (web, worker or both), the metrics
 * port, the pause before a shutdown, and the addresses exempt from the per-address limits.
 * docs/deploy.md and docs/monitoring.md say how an operator uses each.
 */
import { z } from "zod";
import { exemptAddressesSetting } from "./addresses.server";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const PROCESS_ROLES = ["web", "worker", "all"] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** Their fields in the one environment schema (platform/config.server.ts). */
export const OPERATIONS_ENV = {
  /** web: pages and API; worker: the periodic jobs (server/jobs.ts); all: both, one server alone. */
  PROCESS_ROLE: z.preprocess(
    emptyToUndefined,
    z.enum(PROCESS_ROLES, { message: "debe ser web (páginas y API), worker (correo y tareas periódicas) o all (todo)" }).default("all"),
  ),
  /** A port of its own for GET /metrics, open there without a token: keep it off the public network. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  /** Milliseconds between SIGTERM and the port closing, /readyz 503 meanwhile, so a balancer stops first. */
  SHUTDOWN_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(0)),
  /** Addresses exempt from the per-address limits (the tests and the bench on one machine); never in a deployment. */
  RATE_LIMIT_EXEMPT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine(
        (value) => exemptAddressesSetting(value) !== null,
        "debe ser loopback o una lista de direcciones o redes (127.0.0.1, 10.0.0.0/8)",
      )
      .optional(),
  ),
};

type OperationsEnv = {
  PROCESS_ROLE: ProcessRole;
  METRICS_PORT?: number;
  SHUTDOWN_DELAY_MS: number;
  SHUTDOWN_TIMEOUT: number;
  RATE_LIMIT_EXEMPT?: string;
  DATABASE_URL?: string;
  PORT: number;
};

/** Each setting that cannot work as given, as a Spanish line naming its variable. */
export function operationsProblems(env: OperationsEnv, { isDeployment }: { isDeployment: boolean }): string[] {
  const problems: string[] = [];
  if (env.PROCESS_ROLE !== "all" && !env.DATABASE_URL)
    problems.push(
      `PROCESS_ROLE=${env.PROCESS_ROLE} necesita DATABASE_URL: la base de datos embebida tiene un solo proceso, que lo hace todo (PROCESS_ROLE=all)`,
    );
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    problems.push(`METRICS_PORT debe ser otro puerto que PORT (${env.PORT})`);
  if (env.SHUTDOWN_DELAY_MS >= env.SHUTDOWN_TIMEOUT * 1000)
    problems.push(`SHUTDOWN_DELAY_MS (${env.SHUTDOWN_DELAY_MS}) debe ser menor que SHUTDOWN_TIMEOUT (${env.SHUTDOWN_TIMEOUT} s)`);
  if (env.RATE_LIMIT_EXEMPT && isDeployment)
    problems.push(
      "RATE_LIMIT_EXEMPT no se admite en un despliegue: detrás de un proxy que no envía X-Forwarded-For, todos los compradores serían esa dirección y no tendrían límites",
    );
  return problems;
}

export type OperationsSettings = {
  /** Which jobs and which HTTP this process runs (PROCESS_ROLE). */
  processRole: ProcessRole;
  /** RATE_LIMIT_EXEMPT as a list (empty: nobody is exempt). */
  rateLimitExempt: string[];
};

export function operationsSettings(env: OperationsEnv): OperationsSettings {
  return {
    processRole: env.PROCESS_ROLE,
    rateLimitExempt: env.RATE_LIMIT_EXEMPT ? (exemptAddressesSetting(env.RATE_LIMIT_EXEMPT) ?? []) : [],
  };
}
