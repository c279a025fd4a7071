/**
 * Reminders a buyer gets about a coupon they have not used: «Tu cupón caduca en N días» before the
 * offer's validity ends, and «Recuerda reservar» some days after paying when the offer's conditions
 * ask for a booking. Both are transactional (about a purchase, no marketing consent needed) and
 * each kind has its own stop link.
 */

export const REMINDER_KINDS = ["expiry", "booking"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const isReminderKind = (value: unknown): value is ReminderKind => REMINDER_KINDS.includes(value as ReminderKind);

/** The kind in the stop page's address (/avisos/caducidad), in the shop's words. */
export const REMINDER_SLUGS: Record<ReminderKind, string> = { expiry: "caducidad", booking: "reserva" };
export const reminderKindOfSlug = (slug: string): ReminderKind | null =>
  REMINDER_KINDS.find((kind) => REMINDER_SLUGS[kind] === slug) ?? null;

/** What a buyer stops with each link: said on the stop page and in the mail's footer. */
export const REMINDER_NAMES: Record<ReminderKind, string> = {
  expiry: "avisos de caducidad de tus cupones",
  booking: "recordatorios para reservar",
};

/** Days before the validity ends (expiry) and days after paying (booking): the defaults. */
export const DEFAULT_EXPIRY_DAYS = [30, 7];
export const DEFAULT_BOOKING_DAYS = [2];

/**
 * A list of days as configured ("30,7"): whole numbers from 1 to 365, each once, largest first.
 * "" means none (that kind is not sent). null for anything else.
 */
export function parseReminderDays(text: string): number[] | null {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) >= 1 && Number(p) <= 365)) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => b - a);
}

/**
 * The expiry reminders as windows of days left (valid_until − today): reminder N is for a coupon
 * with more than the next smaller N and at most N days left, so a coupon gets the reminder of the
 * threshold it is at, never a late copy of a larger one. It also needs the payment to have come
 * before that threshold's day (`paidBefore`): a buyer who paid with 20 days left just read the
 * validity in the purchase mail, and gets the 7-day reminder only.
 */
export function expiryWindows(days: readonly number[]): { days: number; minLeft: number; maxLeft: number }[] {
  const sorted = [...days].sort((a, b) => b - a);
  return sorted.map((n, i) => ({ days: n, minLeft: (sorted[i + 1] ?? -1) + 1, maxLeft: n }));
}

/**
 * Whether an offer's conditions ask the buyer to book before going: a line that starts with
 * «Reserva…» (previa, con 48 horas de antelación, de plaza, de turno…) or that says booking is
 * needed («imprescindible reservar», «con reserva previa»), unless it says booking is only
 * recommended or not needed. The partner writes conditions one per line (the voucher prints
 * them so); the line is what the reminder quotes.
 */
export function bookingLine(conditions: string): string | null {
  for (const raw of conditions.split("\n")) {
    const line = raw.trim();
    const plain = fold(line);
    if (!plain) continue;
    if (/\b(recomendad|aconsejad|opcional|sin reserva|no (es )?necesari|no hace falta)/.test(plain)) continue;
    if (
      /^reserva(r|s)?\b/.test(plain) ||
      /\b(reserva previa|previa reserva|imprescindible reservar|hay que reservar|necesario reservar|es necesario reservar|reservar con antelacion|reservar previamente)\b/.test(
        plain,
      )
    )
      return line;
  }
  return null;
}

export const requiresBooking = (conditions: string): boolean => bookingLine(conditions) !== null;

function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** «caduca hoy», «caduca mañana», «caduca en 7 días»; plural for several coupons. */
export function expiresIn(daysLeft: number, count = 1): string {
  const verb = count === 1 ? "caduca" : "caducan";
  if (daysLeft <= 0) return `${verb} hoy`;
  if (daysLeft === 1) return `${verb} mañana`;
  return `${verb} en ${daysLeft} días`;
}

/** «Tu cupón caduca en 7 días», «Tus 2 cupones caducan mañana». */
export function expirySubject(daysLeft: number, count: number): string {
  const what = count === 1 ? "Tu cupón" : `Tus ${count} cupones`;
  return `${what} ${expiresIn(daysLeft, count)}`;
}

/** Reminders are queued from 09:00 to 21:00, Spanish time. */
export const REMINDER_HOURS = { from: 9, to: 21 };
