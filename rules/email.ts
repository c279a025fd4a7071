// Pragmatic address check (local@domain.tld): strict enough to catch typos, loose enough for real
// addresses with +tags, dots and subdomains.
const EMAIL_RE = /^[^\s@"<>()[\],;:]+@[^\s@"<>()[\],;:]+\.[a-z]{2,}$/i;

export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && EMAIL_RE.test(email);
}
