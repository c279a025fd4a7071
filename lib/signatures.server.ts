import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed values in links that arrive by mail (unsubscribe, a guest's coupons). HMAC-SHA256 under
 * the session secrets: signed with the newest, accepted under any of them, so rotating
 * SESSION_SECRET keeps links in old mails working. The purpose is part of what is signed, so an
 * unsubscribe signature can never open a purchase, and the other way round.
 */
export type SignaturePurpose = "unsubscribe" | "purchase" | "pkce";

function mac(secret: string, purpose: SignaturePurpose, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}:${value}`).digest("base64url");
}

export function sign(secrets: readonly string[], purpose: SignaturePurpose, value: string): string {
  return mac(secrets[0], purpose, value);
}

export function verifySignature(secrets: readonly string[], purpose: SignaturePurpose, value: string, signature: string): boolean {
  const given = Buffer.from(signature);
  return secrets.some((secret) => {
    const expected = Buffer.from(mac(secret, purpose, value));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Addresses are compared lower-case everywhere, so the signature is too. */
export const unsubscribeSignature = (secrets: readonly string[], email: string) => sign(secrets, "unsubscribe", email.trim().toLowerCase());
export const verifyUnsubscribe = (secrets: readonly string[], email: string, sig: string) =>
  verifySignature(secrets, "unsubscribe", email.trim().toLowerCase(), sig);
export const purchaseSignature = (secrets: readonly string[], saleId: string) => sign(secrets, "purchase", saleId.toLowerCase());
export const verifyPurchase = (secrets: readonly string[], saleId: string, sig: string) => verifySignature(secrets, "purchase", saleId.toLowerCase(), sig);
