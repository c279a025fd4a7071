import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed values in links that arrive by mail (unsubscribe, a guest's coupons). HMAC-SHA256 under
 * the session secrets: signed with the newest, accepted under any of them, so rotating
 * SESSION_SECRET keeps links in old mails working. The purpose is part of what is signed, so an
 * unsubscribe signature can never open a purchase, and the other way round.
 */
export type SignaturePurpose = "unsubscribe" | "purchase" | "pkce" | "noscript-form";

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

/**
 * The storefront's word to the API that a captcha form came in without JavaScript (its page's
 * HTML still had the field the widget replaces), for the address it was filled in with, and
 * when: the API then accepts it with no captcha token, and a bare API call without one is refused.
 */
export const NOSCRIPT_PROOF_SECONDS = 15 * 60;
export function noScriptFormProof(secrets: readonly string[], email: string, now = Date.now()): string {
  const at = Math.floor(now / 1000);
  return `${at}.${sign(secrets, "noscript-form", `${at}:${email.trim().toLowerCase()}`)}`;
}
export function verifyNoScriptFormProof(secrets: readonly string[], email: string, proof: string, now = Date.now()): boolean {
  const [at, signature] = proof.split(".");
  const age = Math.floor(now / 1000) - Number(at);
  if (!/^\d{1,12}$/.test(at ?? "") || !signature || age < 0 || age > NOSCRIPT_PROOF_SECONDS) return false;
  return verifySignature(secrets, "noscript-form", `${at}:${email.trim().toLowerCase()}`, signature);
}
