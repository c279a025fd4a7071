/**
 * An in-memory PayPal (REST: OAuth2 token, Orders v2, webhook signature verification) for msw.
 * Shapes follow developer.paypal.com: error bodies `{ name, message, debug_id, details: [{ issue,
 * description }] }`, 401 on a missing/unknown bearer token, PayPal-Request-Id idempotency, and a
 * real RSA check of webhook transmissions (`<id>|<time>|<webhook_id>|<crc32(body)>`).
 */
export {
  approvePaypalOrder,
  capturedCount,
  capturePaypalOrderElsewhere,
  createPaypalMockState,
  type PaypalMockCapture,
  type PaypalMockOrder,
  type PaypalMockState,
  type PaypalOrderStatus,
} from "./paypal/state";
export { PAYPAL_HANGS_FOR, paypalHandlers, paypalHangsForSomeBuyers } from "./paypal/handlers";
export { signPaypalWebhook } from "./paypal/webhooks";
