/** PayPal's webhook signatures, both ways: a test signs a delivery, the mock's verify endpoint checks one. */
import { createSign, createVerify, randomUUID } from "node:crypto";
import type { PaypalMockState } from "./state";

/**
 * Builds a webhook delivery the way PayPal signs it: SHA256withRSA over
 * `transmission_id|transmission_time|webhook_id|crc32(raw body)`.
 */
export function signPaypalWebhook(
  state: PaypalMockState,
  event: Record<string, unknown>,
  opts: { webhookId?: string; transmissionTime?: string } = {},
): { rawBody: string; headers: Record<string, string> } {
  const rawBody = JSON.stringify(event);
  const transmissionId = randomUUID();
  const transmissionTime = opts.transmissionTime ?? new Date().toISOString();
  const message = `${transmissionId}|${transmissionTime}|${opts.webhookId ?? state.webhookId}|${crc32(rawBody)}`;
  const signer = createSign("RSA-SHA256");
  signer.update(message);
  return {
    rawBody,
    headers: {
      "content-type": "application/json",
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": state.certUrl,
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-sig": signer.sign(state.keys.privateKey, "base64"),
      "paypal-transmission-time": transmissionTime,
    },
  };
}

export function verifyTransmission(state: PaypalMockState, body: Record<string, unknown>): boolean {
  // The event as PayPal sent it; tests build rawBody with JSON.stringify, so this is the same text.
  const rawEvent = JSON.stringify(body.webhook_event);
  const message = `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(rawEvent)}`;
  const verifier = createVerify("RSA-SHA256");
  verifier.update(message);
  try {
    return verifier.verify(state.keys.publicKey, String(body.transmission_sig), "base64");
  } catch {
    return false;
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of the UTF-8 bytes, as the unsigned decimal PayPal signs. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
