import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { sameSecret } from "./same-secret.server";

/**
 * Signed values in links that arrive by mail (unsubscribe, a guest's coupons). HMAC-SHA256 under
 * the session secrets: signed with the newest, accepted under any of them, so rotating
 * SESSION_SECRET keeps links in old mails working. The purpose is part of what is signed, so an
 * unsubscribe signature can never open a purchase, and the other way round.
 */
export type SignaturePurpose = "unsubscribe" | "purchase" | "gift" | "pkce" | "noscript-form";

function mac(secret: string, purpose: SignaturePurpose, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}:${value}`).digest("base64url");
}

export function sign(secrets: readonly string[], purpose: SignaturePurpose, value: string): string {
  return mac(secrets[0], purpose, value);
}

export function verifySignature(secrets: readonly string[], purpose: SignaturePurpose, value: string, signature: string): boolean {
  return secrets.some((secret) => sameSecret(signature, mac(secret, purpose, value)));
}

/** Addresses are compared lower-case everywhere, so the signature is too. */
export const unsubscribeSignature = (secrets: readonly string[], email: string) => sign(secrets, "unsubscribe", email.trim().toLowerCase());
/** The `email=…&sig=…` form of unsubscribe links, still in mails sent before link tokens. */
export const verifyUnsubscribe = (secrets: readonly string[], email: string, sig: string) =>
  verifySignature(secrets, "unsubscribe", email.trim().toLowerCase(), sig);
export const purchaseSignature = (secrets: readonly string[], saleId: string) => sign(secrets, "purchase", saleId.toLowerCase());
export const verifyPurchase = (secrets: readonly string[], saleId: string, sig: string) =>
  verifySignature(secrets, "purchase", saleId.toLowerCase(), sig);

/** A gift's own link: one line of one sale, for its recipient (never the buyer's whole order). */
export const giftSignature = (secrets: readonly string[], saleId: string, offerId: string) =>
  sign(secrets, "gift", `${saleId.toLowerCase()}:${offerId.toLowerCase()}`);
export const verifyGift = (secrets: readonly string[], saleId: string, offerId: string, sig: string) =>
  verifySignature(secrets, "gift", `${saleId.toLowerCase()}:${offerId.toLowerCase()}`, sig);

/**
 * Link tokens (`?t=…`): what a mailed link says about its recipient, sealed with AES-256-GCM so
 * that the URL shows nothing of it (an address in a URL reaches logs, referrers and spam scores)
 * and nobody can make one. Sealed under the newest session secret, opened under any; the purpose
 * is authenticated with it, so an unsubscribe token never rates and a rating token never
 * unsubscribes.
 */
export type LinkPurpose = "unsubscribe" | "feedback" | "activation" | "password-reset" | "reminder-expiry" | "reminder-booking";
export const LINK_PURPOSES = [
  "unsubscribe",
  "feedback",
  "activation",
  "password-reset",
  "reminder-expiry",
  "reminder-booking",
] as const satisfies readonly LinkPurpose[];
/** Whom a link is for: the recipient's address, and the offer when the link is about one. */
export type LinkSubject = { email: string; offer?: string };

const TOKEN_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Far above any real token (an address is at most 254 characters): longer input is not decoded. */
const MAX_TOKEN_LENGTH = 600;

const linkKeys = new Map<string, Buffer>();
function linkKey(secret: string): Buffer {
  let key = linkKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "ofertas", "mail-link-token", 32));
    linkKeys.set(secret, key);
  }
  return key;
}

const associated = (purpose: LinkPurpose) => Buffer.from(`ofertas-link:${TOKEN_VERSION}:${purpose}`);

export function sealLink(secrets: readonly string[], purpose: LinkPurpose, subject: LinkSubject): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", linkKey(secrets[0]), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associated(purpose));
  const plain = [subject.email.trim().toLowerCase(), subject.offer?.toLowerCase() ?? ""].join("\n");
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.of(TOKEN_VERSION), iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** The subject of a token made by sealLink for this purpose, or null for anything else. */
export function openLink(secrets: readonly string[], purpose: LinkPurpose, token: unknown): LinkSubject | null {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const raw = Buffer.from(token, "base64url");
  if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== TOKEN_VERSION) return null;
  const iv = raw.subarray(1, 1 + IV_BYTES);
  const sealed = raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES);
  const tag = raw.subarray(raw.length - TAG_BYTES);
  for (const secret of secrets) {
    const decipher = createDecipheriv("aes-256-gcm", linkKey(secret), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associated(purpose));
    decipher.setAuthTag(tag);
    let plain: string;
    try {
      plain = Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8");
    } catch {
      continue; // another secret, or not ours
    }
    const [email, offer] = plain.split("\n");
    return offer ? { email, offer } : { email };
  }
  return null;
}

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
