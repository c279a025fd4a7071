import { timingSafeEqual } from "node:crypto";

/**
 * Whether a secret someone sent (a code, a signature, a state, a token; as text, or as the bytes
 * it decodes to) equals the expected one, in a time that does not tell where they first differ.
 * The one constant-time comparison of the code base. Anything but a string or bytes never matches.
 */
export function sameSecret(given: unknown, expected: string | Buffer, encoding: BufferEncoding = "utf8"): boolean {
  const sent = Buffer.isBuffer(given) ? given : Buffer.from(typeof given === "string" ? given : "", encoding);
  const wanted = typeof expected === "string" ? Buffer.from(expected, encoding) : expected;
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}
