/**
 * What a partner sees of the person who bought a coupon: enough to greet them and to match a
 * booking, no more. The first name they gave at checkout (or their account's), and a hint of
 * their email address for a guest who gave no name.
 */

/** First word of the name typed at checkout, else the account's first name; null when there is neither. */
export function buyerFirstName(fullName: string | null | undefined, accountFirstName: string | null | undefined): string | null {
  const typed = fullName?.trim().split(/\s+/)[0];
  const name = typed || accountFirstName?.trim();
  return name ? name.slice(0, 40) : null;
}

/** «lu…@correo.es»: the first two characters of the mailbox and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "…";
  return `${email.slice(0, Math.min(2, at))}…${email.slice(at)}`;
}
