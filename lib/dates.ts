import { format, isValid, parseISO } from "date-fns";
import { es } from "date-fns/locale";

/** Spec default date display "dd MMMM yyyy", in Spanish ("31 diciembre 2026"). */
export function formatDate(value: string | Date, pattern = "dd MMMM yyyy"): string {
  const date = typeof value === "string" ? parseISO(value) : value;
  return isValid(date) ? format(date, pattern, { locale: es }) : "";
}

const dateTimeFormat = new Intl.DateTimeFormat("es-ES", { timeZone: "Europe/Madrid", dateStyle: "long", timeStyle: "short" });

/** "21 de noviembre de 2026, 15:04", Spanish time: when a coupon was redeemed, for the till. */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : dateTimeFormat.format(date);
}

const shortDateTimeFormat = new Intl.DateTimeFormat("es-ES", { timeZone: "Europe/Madrid", dateStyle: "short", timeStyle: "short" });

/** "21/11/26, 15:04", Spanish time: for a row of a table, where the long form wraps. */
export function formatShortDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : shortDateTimeFormat.format(date);
}
