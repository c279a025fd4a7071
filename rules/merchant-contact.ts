/**
 * How a buyer reaches the merchant to book: the partner's phone, email and website as links, and
 * the lines of the offer's conditions that say how to book («Reserva previa por teléfono»). Shared
 * by the offer page, the success and coupons pages, the voucher PDF and the purchase mail.
 */

export type MerchantContact = { phone: string | null; email: string | null; website: string | null };

/** «+34 915 738 214» → «tel:+34915738214»: digits and a leading plus, as dialers expect. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^\d]/g, "");
  return `tel:${trimmed.startsWith("+") ? "+" : ""}${digits}`;
}

/** A website as typed by the partner, always opened over https. */
export function websiteHref(website: string): string {
  const bare = website.trim().replace(/^https?:\/\//i, "");
  return `https://${bare}`;
}

/** «https://www.termasdelretiro.es/» → «www.termasdelretiro.es», as printed on paper. */
export function websiteLabel(website: string): string {
  return website
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/$/, "");
}

/** The lines of the conditions about booking ahead, in the partner's words. */
export function bookingLines(conditions: string): string[] {
  return conditions
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /\breserv/i.test(line));
}

export function hasContact(contact: MerchantContact): boolean {
  return Boolean(contact.phone || contact.email || contact.website);
}

/** The contact lines as plain text (PDF, text mail): «Teléfono: …», «Correo: …», «Web: …». */
export function contactLines(contact: MerchantContact): string[] {
  return [
    contact.phone ? `Teléfono: ${contact.phone}` : null,
    contact.email ? `Correo: ${contact.email}` : null,
    contact.website ? `Web: ${websiteLabel(contact.website)}` : null,
  ].filter((line): line is string => line !== null);
}
