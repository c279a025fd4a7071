import { PaymentProviderError, type PaymentProviderName, type PaymentState } from "./types";

/**
 * Exact conversions for amounts that cross a provider's API. Stricter than rules/prices on purpose:
 * an amount we cannot represent exactly in cents is refused (null), never rounded.
 */
export function centsToDecimal(cents: number, provider: PaymentProviderName): string {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new PaymentProviderError("Importe no válido.", provider);
  }
  const digits = String(cents).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** "12.50" / 12.5 / "12" → cents; null when it is not a plain decimal with at most 2 places. */
export function decimalToCents(value: unknown): number | null {
  // String(number) gives the shortest text that round-trips (19.99 → "19.99"), so no float drift.
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[3] ?? "").replace(/0+$/, "");
  if (fraction.length > 2) return null;
  const cents = Number(match[2]) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return match[1] ? -cents : cents;
}

/** An ISO 4217 code as the provider wrote it, upper-cased; null when it is not one. */
export function currencyCode(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z]{3}$/.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/**
 * The state of a payment the provider says is complete: captured with the provider's own amount
 * and currency, or, when either is missing or unreadable ("1,00", "", 12.345, "€"), pending with
 * the reason. The sale then stays pending and the reason is logged; it is never paid in full by
 * default.
 */
export function capturedOrNot(
  provider: PaymentProviderName,
  amount: unknown,
  currency: unknown,
  fallback: { amountCents: number; currency: string; providerRef: string },
): PaymentState {
  const cents = decimalToCents(amount);
  const code = currencyCode(currency);
  if (cents !== null && cents >= 0 && code !== null) {
    return { status: "captured", amountCents: cents, currency: code, providerRef: fallback.providerRef };
  }
  const said = `importe ${JSON.stringify(amount) ?? "ausente"}, moneda ${JSON.stringify(currency) ?? "ausente"}`;
  return { status: "pending", ...fallback, unreadable: `${provider} da el pago por hecho sin un importe y una moneda legibles (${said})` };
}
