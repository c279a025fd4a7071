// One module per function: "date-fns" and "date-fns/locale" load every function and every
// locale (~2,000 modules, 8.4 MB of the server's heap that each full collection walked).
import { format } from "date-fns/format";
import { isValid } from "date-fns/isValid";
import { es } from "date-fns/locale/es";
import { parseISO } from "date-fns/parseISO";

/** Spec default date display "dd MMMM yyyy", in Spanish ("31 diciembre 2026"). */
export function formatDate(value: string | Date, pattern = "dd MMMM yyyy"): string {
  const date = typeof value === "string" ? parseISO(value) : value;
  return isValid(date) ? format(date, pattern, { locale: es }) : "";
}

/**
 * Made on first use, not when the module loads: a browser spends milliseconds loading a locale for
 * the first Intl object, and pages that import this module without showing a time need not pay it.
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => (format ??= new Intl.DateTimeFormat("es-ES", { timeZone: "Europe/Madrid", ...options })).format(date);
}

const dateTimeFormat = lazyFormat({ dateStyle: "long", timeStyle: "short" });

/** "21 de noviembre de 2026, 15:04", Spanish time: when a coupon was redeemed, for the till. */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : dateTimeFormat(date);
}

const shortDateTimeFormat = lazyFormat({ dateStyle: "short", timeStyle: "short" });

/** "21/11/26, 15:04", Spanish time: for a row of a table, where the long form wraps. */
export function formatShortDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : shortDateTimeFormat(date);
}
