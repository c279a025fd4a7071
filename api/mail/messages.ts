import type { MessageRenderer } from "./context";
import { renderAccountActivation } from "./templates/account-activation";
import { renderAccountExists, renderNoAccount, renderPasswordLocked } from "./templates/account-notice";
import { renderDigest } from "./templates/digest";
import { renderEmailChange } from "./templates/email-change";
import { renderFeedbackRequest } from "./templates/feedback-request";
import { renderLoginCode } from "./templates/login-code";
import { renderMemberInvitation } from "./templates/member-invitation";
import { renderPartnerLead } from "./templates/partner-lead";
import { renderPartnerLeadConfirmation } from "./templates/partner-lead-confirmation";
import { renderPasswordReset } from "./templates/password-reset";
import { renderPurchaseConfirmation } from "./templates/purchase-confirmation";
import { renderCouponRefund } from "./templates/coupon-refund";
import { renderGift, renderGiftSent } from "./templates/gift";
import { renderBookingReminder, renderExpiryReminder } from "./templates/reminders";

export type { MailContext, MessageRenderer, RenderedMail } from "./context";

/**
 * Every kind of mail this product sends: kind → render function (a react-email component in
 * templates/<kind>.tsx). To add a message: a new template file and one line here; queue it with
 * queueMail(tx, { kind, to, dedupeKey, data }) in the transaction that causes it.
 */
export const messages: Record<string, MessageRenderer> = {
  "purchase-confirmation": renderPurchaseConfirmation,
  "feedback-request": renderFeedbackRequest,
  "coupon-refund": renderCouponRefund,
  gift: renderGift,
  "gift-sent": renderGiftSent,
  "expiry-reminder": renderExpiryReminder,
  "booking-reminder": renderBookingReminder,
  digest: renderDigest,
  "login-code": renderLoginCode,
  "account-activation": renderAccountActivation,
  "password-reset": renderPasswordReset,
  "email-change": renderEmailChange,
  "account-exists": renderAccountExists,
  "no-account": renderNoAccount,
  "password-locked": renderPasswordLocked,
  "partner-lead": renderPartnerLead,
  "partner-lead-confirmation": renderPartnerLeadConfirmation,
  "member-invitation": renderMemberInvitation,
};
