import { timingSafeEqual } from "node:crypto";

/**
 * Whether a secret someone sent (a code, a signature, a state) equals the expected one, in a time
 * that does not tell where they first differ. Anything but a string never matches.
 */
export function sameSecret(given: unknown, expected: string, encoding: BufferEncoding = "utf8"): boolean {
  const sent = Buffer.from(typeof given === "string" ? given : "", encoding);
  const wanted = Buffer.from(expected, encoding);
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}
