/** Every date and time the shop shows, on pages, in mails, PDFs and exports, is Spanish time. */
const ZONE = "Europe/Madrid";

/**
 * Made on first use, not when the module loads: a browser spends milliseconds loading a locale for
 * the first Intl object, and pages that import this module without showing a time need not pay it.
 */
function lazyFormatter(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat("es-ES", { timeZone: ZONE, ...options }));
}

const wallClockFormat = lazyFormatter({
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/** A calendar date as the API writes one (valid_from, valid_until): a day, in no time zone. */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

/** The wall clock in Madrid at an instant (or the calendar date itself), whatever the machine's zone. */
function madrid(value: string | Date): WallClock | null {
  const day = typeof value === "string" ? DATE_ONLY.exec(value) : null;
  if (day) return { year: Number(day[1]), month: Number(day[2]), day: Number(day[3]), hour: 0, minute: 0 };
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const parts = Object.fromEntries(
    wallClockFormat()
      .formatToParts(date)
      .map((p) => [p.type, Number(p.value)]),
  );
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

const pad = (n: number) => String(n).padStart(2, "0");
const TOKENS: Record<string, (c: WallClock) => string> = {
  yyyy: (c) => String(c.year),
  MMMM: (c) => MONTHS[c.month - 1],
  MM: (c) => pad(c.month),
  dd: (c) => pad(c.day),
  HH: (c) => pad(c.hour),
  mm: (c) => pad(c.minute),
};

/**
 * Spec default date display "dd MMMM yyyy", in Spanish ("31 diciembre 2026"), Madrid time.
 * Patterns take the tokens yyyy, MMMM, MM, dd, HH and mm ("dd/MM/yyyy", "dd MMMM yyyy, HH:mm").
 */
export function formatDate(value: string | Date, pattern = "dd MMMM yyyy"): string {
  const clock = madrid(value);
  return clock ? pattern.replace(/yyyy|MMMM|MM|dd|HH|mm/g, (token) => TOKENS[token](clock)) : "";
}

const dateTimeFormat = lazyFormatter({ dateStyle: "long", timeStyle: "short" });

/** "21 de noviembre de 2026, 15:04", Spanish time: when a coupon was redeemed, for the till. */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : dateTimeFormat().format(date);
}

const shortDateTimeFormat = lazyFormatter({ dateStyle: "short", timeStyle: "short" });

/** "21/11/26, 15:04", Spanish time: for a row of a table, where the long form wraps. */
export function formatShortDateTime(value: string | Date): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "" : shortDateTimeFormat().format(date);
}

/** The calendar date in Madrid at an instant, as the API writes dates: "2026-11-28". */
export function madridDate(at: Date): string {
  const clock = madrid(at);
  return clock ? `${clock.year}-${pad(clock.month)}-${pad(clock.day)}` : "";
}

/** The hour (0–23) on a Madrid clock at an instant. */
export function madridHour(at: Date): number {
  return madrid(at)?.hour ?? 0;
}

/** Whole days from one calendar date to another ("2026-11-28" → "2026-12-05" is 7). */
export function daysBetween(from: string, to: string): number {
  const day = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/** A calendar date plus some days ("2026-11-28" + 7 → "2026-12-05"). */
export function addDays(date: string, days: number): string {
  const d = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + days));
  return d.toISOString().slice(0, 10);
}
