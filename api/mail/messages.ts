import type { MessageRenderer } from "./context";
import { renderDigest } from "./templates/digest";
import { renderFeedbackRequest } from "./templates/feedback-request";
import { renderPurchaseConfirmation } from "./templates/purchase-confirmation";

export type { MailContext, MessageRenderer, RenderedMail } from "./context";

/**
 * Every kind of mail this product sends: kind → render function (a react-email component in
 * templates/<kind>.tsx). To add a message: a new template file and one line here; queue it with
 * queueMail(tx, { kind, to, dedupeKey, data }) in the transaction that causes it.
 */
export const messages: Record<string, MessageRenderer> = {
  "purchase-confirmation": renderPurchaseConfirmation,
  "feedback-request": renderFeedbackRequest,
  digest: renderDigest,
};
