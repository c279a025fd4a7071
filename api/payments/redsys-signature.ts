/**
 * Redsys's HMAC_SHA256_V1 signature, as its integration guides describe it:
 *
 *   order key = 3DES-CBC(key = base64-decoded merchant key, IV = 8 zero bytes, Ds_Order zero-padded)
 *   signature = base64( HMAC-SHA256(order key, Ds_MerchantParameters as sent) )
 *
 * Ds_MerchantParameters is the base64 of a JSON object of strings. Redsys signs its own messages
 * the same way with the order it answers about; its notifications use base64url for the signature.
 * Checked against the published vectors in tests/unit/payments-redsys-signature.test.ts.
 */
import { createCipheriv, createHmac } from "node:crypto";
import { sameSecret } from "#platform/same-secret.server";

export const SIGNATURE_VERSION = "HMAC_SHA256_V1";

export type SignedMessage = { Ds_SignatureVersion: string; Ds_MerchantParameters: string; Ds_Signature: string };

/** The order's own signing key: the order number encrypted with the merchant key. */
export function orderKey(secretKey: string, order: string): Buffer {
  const text = Buffer.from(order, "utf8");
  const padded = Buffer.concat([text, Buffer.alloc((8 - (text.length % 8)) % 8)]);
  const cipher = createCipheriv("des-ede3-cbc", Buffer.from(secretKey, "base64"), Buffer.alloc(8));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(padded), cipher.final()]);
}

function signatureBytes(secretKey: string, order: string, merchantParameters: string): Buffer {
  return createHmac("sha256", orderKey(secretKey, order)).update(merchantParameters, "utf8").digest();
}

/** Ds_Signature for these parameters (standard base64, as a merchant sends it). */
export function signParameters(secretKey: string, order: string, merchantParameters: string): string {
  return signatureBytes(secretKey, order, merchantParameters).toString("base64");
}

/**
 * Whether `given` (base64 or base64url) is the signature of these parameters, compared in constant
 * time so that a forger learns nothing from how long a refusal takes.
 */
export function signatureMatches(secretKey: string, order: string, merchantParameters: string, given: string): boolean {
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(given)) return false;
  const received = Buffer.from(given.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  const expected = signatureBytes(secretKey, order, merchantParameters);
  return sameSecret(received, expected);
}

export function encodeParameters(params: Record<string, string>): string {
  return Buffer.from(JSON.stringify(params), "utf8").toString("base64");
}

/** The JSON object in Ds_MerchantParameters (base64 or base64url), or null when it is not one. */
export function decodeParameters(merchantParameters: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(merchantParameters)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(merchantParameters, "base64").toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A signed message for these parameters, whose DS_MERCHANT_ORDER picks the signing key. */
export function signRequest(secretKey: string, params: Record<string, string>): SignedMessage {
  const merchantParameters = encodeParameters(params);
  return {
    Ds_SignatureVersion: SIGNATURE_VERSION,
    Ds_MerchantParameters: merchantParameters,
    Ds_Signature: signParameters(secretKey, params.DS_MERCHANT_ORDER, merchantParameters),
  };
}

/**
 * One field of a Redsys answer, whatever the case of its name (Ds_Order, DS_ORDER); values of a
 * notification come URL-encoded ("22%2F10%2F2021"). Null when absent or not text.
 */
export function field(params: Record<string, unknown>, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(params)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value !== "string") return null;
    try {
      return decodeURIComponent(value.replace(/\+/g, " "));
    } catch {
      return value;
    }
  }
  return null;
}

/**
 * A message signed by Redsys with our key: its parameters when the signature version is ours,
 * the parameters name an order and the signature of that order's key matches; else null.
 */
export function verifiedParameters(
  secretKey: string,
  message: Partial<Record<keyof SignedMessage, unknown>>,
): Record<string, unknown> | null {
  const { Ds_SignatureVersion: version, Ds_MerchantParameters: merchantParameters, Ds_Signature: signature } = message;
  if (version !== SIGNATURE_VERSION || typeof merchantParameters !== "string" || typeof signature !== "string") return null;
  const params = decodeParameters(merchantParameters);
  const order = params ? field(params, "Ds_Order") : null;
  if (!params || !order || !signatureMatches(secretKey, order, merchantParameters, signature)) return null;
  return params;
}
