import type { Database } from "#api/db/client";
import { logger } from "#platform/logger.server";
import { reportError } from "#platform/error-reporting.server";
import { claimDueEvents, markEventsFailed, markEventsSent, type HttpApiEvent } from "./outbox";
import { worthLogging } from "#api/db/errors";

export type AnalyticsDeliveryOptions = {
  apiKey: string;
  /** Amplitude's HTTP API v2, EU residency by default (spec section 9: EU server zone). */
  url: string;
  /** Events per request; Amplitude takes far more, a purchase burst needs no more. */
  batchSize?: number;
  timeoutMs?: number;
};

/** Spec section 8's status mapping, and what each means for a retry. */
export type Outcome =
  | { kind: "success"; status: number }
  | { kind: "rate_limit" | "timeout" | "failed"; status: number | null; retry: true; error: string }
  | { kind: "payload_too_large" | "invalid"; status: number; retry: false; error: string };

export function classify(status: number, body = ""): Outcome {
  if (status >= 200 && status <= 299) return { kind: "success", status };
  const error = `HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ""}`;
  if (status === 429) return { kind: "rate_limit", status, retry: true, error };
  if (status === 413) return { kind: "payload_too_large", status, retry: false, error };
  if (status === 408) return { kind: "timeout", status, retry: true, error };
  if (status >= 400 && status <= 499) return { kind: "invalid", status, retry: false, error };
  return { kind: "failed", status, retry: true, error };
}

export async function postEvents(options: AnalyticsDeliveryOptions, events: HttpApiEvent[]): Promise<Outcome> {
  try {
    const res = await fetch(options.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "*/*" },
      body: JSON.stringify({ api_key: options.apiKey, events }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    return classify(res.status, res.ok ? "" : await res.text().catch(() => ""));
  } catch (error) {
    // No answer at all (network, DNS, our own timeout): like a 5xx, worth another try.
    return { kind: "failed", status: null, retry: true, error: error instanceof Error ? error.message : String(error) };
  }
}

/** 429 waits out Amplitude's throttling window; other retries back off 2^n seconds, up to an hour. */
export function retryDelayMs(outcome: Outcome, attempts: number): number {
  if (outcome.kind === "rate_limit") return 30_000;
  return Math.min(2 ** attempts * 1000, 60 * 60 * 1000);
}

/** Sends what is due once. Returns how many events were delivered. */
export async function deliverDueEvents(db: Database, options: AnalyticsDeliveryOptions): Promise<number> {
  const rows = await claimDueEvents(db, { limit: options.batchSize ?? 50, leaseMs: 60_000 });
  if (!rows.length) return 0;
  const outcome = await postEvents(
    options,
    rows.map((r) => r.event),
  );
  if (outcome.kind === "success") {
    await markEventsSent(
      db,
      rows.map((r) => r.id),
      outcome.status,
    );
    return rows.length;
  }
  const retryInMs = outcome.retry ? retryDelayMs(outcome, Math.max(...rows.map((r) => r.attempts))) : null;
  await markEventsFailed(db, rows, { status: outcome.status, error: outcome.error, retryInMs });
  const attempt = Math.max(...rows.map((r) => r.attempts));
  logger.warn(
    {
      events: rows.length,
      attempt,
      status: outcome.status,
      error: outcome.error,
      nextTry: retryInMs === null ? null : new Date(Date.now() + retryInMs).toISOString(),
    },
    "Analítica: envío fallido.",
  );
  // Given up on: these events will never reach the analytics service.
  if (retryInMs === null)
    reportError(
      new Error(
        `Analítica: ${rows.length} evento(s) descartados tras ${attempt} intento(s) (${outcome.status ?? "sin respuesta"}): ${outcome.error}`,
      ),
      {
        source: "analytics",
      },
    );
  return 0;
}

export function startAnalyticsDelivery(db: Database, options: AnalyticsDeliveryOptions, everyMs = 5_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deliverDueEvents(db, options)
      .catch((error: unknown) => worthLogging(error) && logger.error({ err: error }, "Envío de analítica fallido."))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
