/**
 * An offer's sale end (offers.sale_until): the last calendar day, in Madrid, it can be bought,
 * until 23:59. Written once: the API refuses with these words, the offer page says them. Real
 * urgency only: the day the partner set, never a countdown that starts again.
 */
import { format } from "date-fns/format";
import { es } from "date-fns/locale/es";
import { daysBetween } from "#rules/dates";
import type { OfferStatus } from "#rules/offer-status";

/** Whether an offer that ends its sale on `saleUntil` can still be bought on Madrid's `today`. */
export function onSale(saleUntil: string | null, today: string): boolean {
  return saleUntil === null || saleUntil >= today;
}

/**
 * The status an offer takes from its sale end: an active offer past it is ended (it leaves the
 * listings and search; its page says so), an ended one given a later end or none is on sale
 * again. Any other status is the partner's or staff's to change.
 */
export function statusForSaleEnd(status: OfferStatus, saleUntil: string | null, today: string): OfferStatus {
  if (status === "active" && !onSale(saleUntil, today)) return "ended";
  if (status === "ended" && onSale(saleUntil, today)) return "active";
  return status;
}

/** A calendar date ("2026-11-29") as a date-fns Date: the local midnight of that day, for its weekday and month. */
function calendarDay(date: string): Date {
  return new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

/** «hoy», «mañana», «el domingo» within a week, else «el 23 de diciembre». */
function whenText(saleUntil: string, today: string): string {
  const days = daysBetween(today, saleUntil);
  if (days === 0) return "hoy";
  if (days === 1) return "mañana";
  if (days < 7) return `el ${format(calendarDay(saleUntil), "EEEE", { locale: es })}`;
  return `el ${format(calendarDay(saleUntil), "d 'de' MMMM", { locale: es })}`;
}

/** «A la venta hasta el domingo, 23:59», or, once ended, «Ya no está a la venta: terminó el 23 de diciembre». */
export function saleEndText(saleUntil: string, today: string): string {
  if (!onSale(saleUntil, today))
    return `Ya no está a la venta: terminó el ${format(calendarDay(saleUntil), "d 'de' MMMM", { locale: es })}.`;
  return `A la venta hasta ${whenText(saleUntil, today)}, 23:59`;
}

/** The API's refusal of a cart line or sale whose offer's sale has ended. */
export const saleEndedMessage = (title: string) => `La oferta «${title}» ya no está a la venta: terminó su plazo de venta.`;
