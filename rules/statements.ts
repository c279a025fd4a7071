/**
 * Statements («liquidaciones»): their periods, in Madrid's calendar, and the numbers of the
 * documents they are (docs/decisions/036-statement-ledger.md).
 */
import { madridDate } from "#rules/dates";

/** Statements: «L-2026-000123». */
export const STATEMENT_SERIES = "L";
/** The shop's invoices for its commission: «C-2026-000045». */
export const INVOICE_SERIES = "C";
/** Rectifying invoices, for commission given back on lines already invoiced: «R-2026-000007». */
export const RECTIFYING_SERIES = "R";
export type DocumentSeries = typeof STATEMENT_SERIES | typeof INVOICE_SERIES | typeof RECTIFYING_SERIES;

/** A number of a series in its year, correlative from 1 each year: «L-2026-000123». */
export function documentNumber(series: DocumentSeries, year: number, n: number): string {
  return `${series}-${year}-${String(n).padStart(6, "0")}`;
}

export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const ZONE = "Europe/Madrid";
let clock: Intl.DateTimeFormat | undefined;
const madridClock = () =>
  (clock ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: ZONE,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }));

/** Madrid's wall clock at an instant, read as if it were UTC, minus the instant: its offset in ms. */
function madridOffsetMs(at: Date): number {
  const p = Object.fromEntries(
    madridClock()
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a Madrid day («2026-10-01») starts. Spain never changes its clocks at midnight. */
export function madridDayStart(day: string): Date {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new RangeError(`not a day: ${day}`);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const first = wall - madridOffsetMs(new Date(wall));
  return new Date(wall - madridOffsetMs(new Date(first)));
}

/** The day after a Madrid day. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** A month («2026-10») as the instants it starts and ends (exclusive), in Madrid. */
export function monthPeriod(month: string): { start: Date; end: Date } {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new RangeError(`not a month: ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]);
  const next = index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, "0")}`;
  return { start: madridDayStart(`${month}-01`), end: madridDayStart(`${next}-01`) };
}

/** The month before the one `now` is in, in Madrid: what the monthly run states on the 1st. */
export function previousMonth(now: Date): string {
  const [y, m] = madridDate(now).split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

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

/** «octubre de 2026» for a whole month; «del 1 de octubre al 15 de octubre de 2026» otherwise (end exclusive). */
export function periodLabel(start: Date, end: Date): string {
  const first = madridDate(start);
  const lastDay = madridDate(new Date(end.getTime() - 1));
  const [y1, m1, d1] = first.split("-").map(Number);
  const [y2, m2, d2] = lastDay.split("-").map(Number);
  if (d1 === 1 && nextDay(lastDay).endsWith("-01") && y1 === y2 && m1 === m2) return `${MONTHS[m1 - 1]} de ${y1}`;
  const from = `${d1} de ${MONTHS[m1 - 1]}${y1 === y2 ? "" : ` de ${y1}`}`;
  return `del ${from} al ${d2} de ${MONTHS[m2 - 1]} de ${y2}`;
}
