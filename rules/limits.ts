/**
 * Limits that keep the shop from being an oracle or a hoard. Written once here; the API enforces
 * them, the README lists them. Addresses are the client's as the API sees it (trusted proxy only).
 */

/**
 * Promo-code guesses: every apply-promocode call and every unknown code sent to validate; and
 * every code a partner or staff member creates or renames, since «that one is taken» is an answer
 * too (per account, and per client address).
 */
export const PROMO_CODE_CHECKS = { points: 30, durationSec: 60 } as const;
export const TOO_MANY_PROMO_CHECKS = "Demasiados intentos con códigos promocionales. Espera un minuto.";

/** "Continuar" (validate) per client address: a buyer fixing a cart needs a handful a minute. */
export const VALIDATES_PER_ADDRESS = { points: 30, durationSec: 60 } as const;

/** "Pagar" (create) per client address: each one holds stock for RESERVATION_MINUTES. */
export const CREATES_PER_ADDRESS = { points: 10, durationSec: 10 * 60 } as const;

/**
 * Unpaid reservations one email may hold at once. Over it, the oldest unpaid one is given back
 * instead of refusing: an email is not proof of identity, so someone using a buyer's email must
 * not be able to lock that buyer out; the buyer's newest order always goes through.
 */
export const MAX_UNPAID_SALES_PER_EMAIL = 3;

/** Unpaid reservations one client address may hold at once (a household or an office, not a bot). */
export const MAX_UNPAID_SALES_PER_ADDRESS = 5;

/**
 * Tickets of one price option that one client address, or one email, may hold unpaid at once:
 * half of what the option had for them (what is left plus what they already hold unpaid),
 * rounded up, so a couple still gets 2 of the last 3 and anyone the last one. Two unpaid
 * reservations (4 + 1) can no longer take a 5-ticket option whole while real buyers read
 * «agotada» until the sweep; paid tickets do not count.
 */
export function maxUnpaidTicketsOfOption(availableToThem: number): number {
  return Math.max(1, Math.ceil(availableToThem / 2));
}

/** A validated order (checkout session) can be paid for this long; the sweep deletes it after. */
export const CHECKOUT_SESSION_MINUTES = 30;

/** Cancelled, declined and expired sales are deleted this long after they were made. */
export const RELEASED_SALE_RETENTION_DAYS = 30;
