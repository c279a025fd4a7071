/**
 * What the provider adapters share about talking HTTP: one JSON call with a deadline, reading a
 * body that may not be JSON, and webhook headers.
 */
import { PaymentProviderError, PaymentProviderUnreachable, type PaymentProviderName, type WebhookRequest } from "./types";

export type Json = Record<string, unknown>;
export type ApiResponse = { status: number; ok: boolean; json: Json | null };

/** How long one call may take when PAYMENT_TIMEOUT_MS does not say. */
export const DEFAULT_PAYMENT_TIMEOUT_MS = 10_000;

const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  sandbox: "la pasarela de pruebas",
  paypal: "PayPal",
  rapyd: "Rapyd",
  allpay: "Allpay",
  redsys: "Redsys",
};

export type ProviderHttpOptions = {
  provider: PaymentProviderName;
  /** The global fetch unless injected; resolved on every call so a fetch patched later (msw) is used. */
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/** `deadline` (epoch ms): an operation of several calls ends by then, whatever each call's own limit. */
export type ProviderRequest = { method: string; headers?: Record<string, string>; body?: string; deadline?: number };

/**
 * A caller of one provider's API. Every call, body included, has `timeoutMs` to finish; a provider
 * that does not answer in time, or cannot be reached, is a PaymentProviderUnreachable.
 */
export function providerHttp(opts: ProviderHttpOptions): (url: string, request: ProviderRequest) => Promise<ApiResponse> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PAYMENT_TIMEOUT_MS;
  const label = PROVIDER_LABELS[opts.provider];
  return async (url, { deadline, ...request }) => {
    const signal = AbortSignal.timeout(deadline === undefined ? timeoutMs : Math.max(0, Math.min(timeoutMs, deadline - Date.now())));
    // Also raced by hand: a fetch stand-in that ignores the signal must not hang the sale.
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const res = await Promise.race([(opts.fetch ?? globalThis.fetch)(url, { ...request, signal }), aborted]);
      const text = await Promise.race([res.text(), aborted]);
      return { status: res.status, ok: res.ok, json: parseJsonObject(text) };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      if (signal.aborted) {
        throw new PaymentProviderUnreachable(`${label} no ha respondido en ${timeoutMs} ms.`, opts.provider, "timeout");
      }
      throw new PaymentProviderUnreachable(`No se pudo conectar con ${label}.`, opts.provider, "network");
    } finally {
      signal.removeEventListener("abort", onAbort);
      aborted.catch(() => undefined);
    }
  };
}

/** The body as a JSON object, or null when it is empty, not JSON, or not an object. */
export function parseJsonObject(text: string): Json | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** A webhook header by name, whatever its case; empty counts as absent. */
export function header(request: WebhookRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() === name && value) return value;
  }
  return undefined;
}
