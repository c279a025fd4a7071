/**
 * IBANs (ISO 13616): where a partner's payouts go. Checked by length for its country and by the
 * mod-97 check digits, so a mistyped digit is caught before a transfer goes astray; shown
 * masked («ES** **** **** **** **** 1234») everywhere but the staff's payout screen.
 */

/** Length of an IBAN per country, from the SWIFT IBAN registry (SEPA countries and their neighbours). */
// prettier-ignore
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18,
  GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32,
  LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24,
  PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

export const IBAN_INVALID_MESSAGE = "El IBAN no es válido: revisa los dígitos (por ejemplo ES91 2100 0418 4502 0005 1332).";

/** As stored: capitals, no spaces or dashes («es91 2100-0418…» → «ES9121000418…»). */
export function normalizeIban(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, "");
}

/** The remainder of the IBAN's number (country and check digits moved to the end, letters as 10–35) by 97. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

export function isValidIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  return length === iban.length && mod97(iban) === 1;
}

/** In groups of four, as a bank prints it: «ES91 2100 0418 4502 0005 1332». */
export function formatIban(value: string): string {
  return normalizeIban(value).replace(/(.{4})(?=.)/g, "$1 ");
}

/** Only the country and the last four characters: «ES** **** **** **** **** 1332». */
export function maskIban(value: string): string {
  const iban = normalizeIban(value);
  if (iban.length < 8) return "****";
  const masked = iban.slice(0, 2) + "*".repeat(iban.length - 6) + iban.slice(-4);
  return formatIban(masked);
}
