/**
 * Every route of /api/v0 and the schema its successful answer fits: the API's tests parse what
 * each route answers with it, and the storefront's client parses with the same schemas in
 * development and tests. A route without JSON to describe names what it answers instead.
 */
import { z } from "zod";
import {
  AccountUserListSchema,
  AccountUserSchema,
  ActivationAnswerSchema,
  AnonymousSessionSchema,
  CodeCheckSchema,
  CodeSentSchema,
  DetailSchema,
  DeviceSessionListSchema,
  EmailConfirmAnswerSchema,
  EndedSessionsSchema,
  RegistrationAnswerSchema,
  SessionInfoSchema,
  TokenPairSchema,
  TokenValidSchema,
} from "#contract/accounts";
import {
  CartSchema,
  CustomerPurchasePageSchema,
  FavoriteListSchema,
  FavoriteToggleSchema,
  MailLinkSchema,
  ReminderStoppedSchema,
  ReserveExistsSchema,
  SubscriptionSchema,
  UnsubscribedSchema,
} from "#contract/customer";
import { FoundCouponsSchema, TodayRedemptionsSchema } from "#contract/till";
import { FeedbackAnswerSchema, FeedbackOfMineSchema } from "#contract/feedback";
import { OfferCardsSchema, OfferDetailSchema, OfferListSchema, OfferPageSchema } from "#contract/offers";
import {
  CouponViewSchema,
  DictionariesSchema,
  InvitationSchema,
  InvitationViewSchema,
  MemberListSchema,
  MembershipsSchema,
  TeamSchema,
  OfferRevisionPageSchema,
  OfferRevisionSchema,
  OrganizationPageSchema,
  OrganizationSchema,
  OrganizationWithMembersSchema,
  PartnerImageListSchema,
  PartnerImageSchema,
  PartnerLeadPageSchema,
  PartnerOfferPageSchema,
  PartnerOfferSchema,
  PartnerSalesSchema,
  SalesPerDaySchema,
  PromoCodeListSchema,
  PromoCodeRecordSchema,
  ReceivedSchema,
  RefundRequiredPageSchema,
  UserListSchema,
} from "#contract/partner-responses";
import {
  AppliedPromoCodeSchema,
  CancelAnswerSchema,
  PaymentAnswerSchema,
  CapturedPurchaseSchema,
  PurchaseSchema,
  RefundAnswerSchema,
  ValidateOrderResponseSchema,
  WebhookAnswerSchema,
} from "#contract/sales";
import { CouponRefundAnswerSchema, RefundDecisionAnswerSchema, RefundRequestPageSchema } from "#contract/refunds";
import {
  MonthlyRunSchema,
  PartnerTermsSchema,
  StatementLinePageSchema,
  StatementPageSchema,
  StatementPreviewSchema,
  StatementSchema,
} from "#contract/statements";

/** An answer that is not JSON: a file, a page or a redirect. */
export type NotJson = { notJson: "pdf" | "image" | "html" | "text" | "redirect" };
const notJson = (kind: NotJson["notJson"]): NotJson => ({ notJson: kind });
/** 204: no body, which the storefront's client reads as null. */
export const NoContent = z.null();
const empty = NoContent;

/** `METHOD /path/` as Express routes it (`:id` for a parameter), relative to /api/v0. */
export const RESPONSES = {
  // Offers, public
  "GET /public/offers/": OfferPageSchema,
  "GET /public/offers/mainpage/": OfferPageSchema,
  "GET /public/offers/popular/": OfferListSchema,
  "GET /public/offers/selected/": OfferCardsSchema,
  "GET /public/offers/:id/nearby/": OfferListSchema,
  "GET /public/offers/:id/": OfferDetailSchema,
  "POST /public/offers/apply-promocode/": AppliedPromoCodeSchema,
  // Feedback
  "POST /public/offers/feedback/": FeedbackAnswerSchema,
  "GET /public/offers/feedback/mine/": FeedbackOfMineSchema,
  "GET /public/offers/feedback/:id/": FeedbackAnswerSchema,
  "PATCH /public/offers/feedback/:id/": FeedbackAnswerSchema,
  "PUT /public/offers/feedback/:id/": FeedbackAnswerSchema,
  // Sales and payments
  "POST /sales/validate/": ValidateOrderResponseSchema,
  "POST /sales/create/": PaymentAnswerSchema,
  "POST /sales/capture/:id/": CapturedPurchaseSchema,
  "GET /sales/purchase/:id/": PurchaseSchema,
  "GET /sales/purchase/:id/vouchers.pdf": notJson("pdf"),
  "POST /sales/cancel/:id/": CancelAnswerSchema,
  "POST /sales/purchase/:id/refund/": CouponRefundAnswerSchema,
  "POST /:provider/webhook/": WebhookAnswerSchema,
  "GET /sandbox/checkout/:id/": notJson("html"),
  "POST /sandbox/checkout/:id/": notJson("redirect"),
  "GET /redsys/pay/:id/": notJson("html"),
  "GET /redsys/ok/:id/": notJson("redirect"),
  "GET /redsys/ko/:id/": notJson("redirect"),
  "POST /sales/download_coupon/": notJson("pdf"),
  "GET /sales/reserve_exists/:id/": ReserveExistsSchema,
  // Mail links and subscriptions
  "GET /customer/mail-link/": MailLinkSchema,
  "GET /customer/unsubscribe/": UnsubscribedSchema,
  "POST /customer/unsubscribe/one-click/": notJson("text"),
  "GET /customer/unsubscribe/one-click/": notJson("redirect"),
  "POST /customer/reminders/stop/": ReminderStoppedSchema,
  "POST /customer/reminders/stop/one-click/": notJson("text"),
  "GET /customer/reminders/stop/one-click/": notJson("redirect"),
  "GET /customer/subscription/": SubscriptionSchema,
  "POST /customer/subscription/": SubscriptionSchema,
  // The customer's data
  "GET /customer/session/": SessionInfoSchema,
  "GET /customer/favorites/": OfferCardsSchema,
  "POST /customer/favorites/:id/toggle/": FavoriteToggleSchema,
  "POST /customer/favorites/sync-list/": FavoriteListSchema,
  "GET /customer/cart/": CartSchema,
  "POST /customer/cart/update/": CartSchema,
  "GET /customer/purchases/": CustomerPurchasePageSchema,
  "POST /session/anonymous/": AnonymousSessionSchema,
  // Tokens, codes and sessions
  "POST /auth/jwt/create/": TokenPairSchema,
  "POST /auth/jwt/refresh/": TokenPairSchema,
  "POST /auth/jwt/logout/": empty,
  "POST /auth/jwt/verify/": TokenValidSchema,
  "POST /auth/jwt/google/": TokenPairSchema,
  "POST /auth/jwt/apple/": TokenPairSchema,
  "POST /auth/jwt/facebook/": TokenPairSchema,
  "POST /verification/send-code/": CodeSentSchema,
  "POST /verification/verify-code/": CodeCheckSchema,
  "POST /verification/otp-login/": TokenPairSchema,
  "GET /auth/sessions/": DeviceSessionListSchema,
  "DELETE /auth/sessions/:id/": empty,
  "POST /auth/sessions/end_others/": EndedSessionsSchema,
  // Accounts
  "POST /auth/users/": RegistrationAnswerSchema,
  "POST /auth/users/activation/": ActivationAnswerSchema,
  "POST /auth/users/resend_activation/": empty,
  "POST /auth/users/reset_password/": empty,
  "POST /auth/users/reset_password_confirm/": empty,
  "POST /auth/users/set_password/": TokenPairSchema,
  "POST /auth/users/set_email/": DetailSchema,
  "POST /auth/users/reset_email/": empty,
  "POST /auth/users/reset_email_confirm/": EmailConfirmAnswerSchema,
  "GET /auth/users/": AccountUserListSchema,
  "GET /auth/users/me/": AccountUserSchema,
  "PUT /auth/users/me/": AccountUserSchema,
  "PATCH /auth/users/me/": AccountUserSchema,
  "DELETE /auth/users/me/": empty,
  "GET /auth/users/:id/": AccountUserSchema,
  "PUT /auth/users/:id/": AccountUserSchema,
  "PATCH /auth/users/:id/": AccountUserSchema,
  "DELETE /auth/users/:id/": empty,
  // Partners and staff
  "GET /offers/dictionaries/": DictionariesSchema,
  "GET /media/:file": notJson("image"),
  "POST /offers/images/": PartnerImageSchema,
  "GET /offers/images/": PartnerImageListSchema,
  "PATCH /offers/images/:id/": PartnerImageSchema,
  "DELETE /offers/images/:id/": empty,
  "GET /offers/revisions/": OfferRevisionPageSchema,
  "PATCH /offers/revisions/:id/": OfferRevisionSchema,
  "DELETE /offers/revisions/:id/": empty,
  "GET /offers/": PartnerOfferPageSchema,
  "POST /offers/": PartnerOfferSchema,
  "GET /offers/:id/": PartnerOfferSchema,
  "PUT /offers/:id/": PartnerOfferSchema,
  "PATCH /offers/:id/": PartnerOfferSchema,
  "DELETE /offers/:id/": empty,
  "GET /organizations/": OrganizationPageSchema,
  "POST /organizations/": OrganizationSchema,
  "GET /organizations/memberships/": MembershipsSchema,
  "GET /organizations/:id/": OrganizationWithMembersSchema,
  "PUT /organizations/:id/": OrganizationSchema,
  "PATCH /organizations/:id/": OrganizationSchema,
  "DELETE /organizations/:id/": empty,
  "GET /organizations/:id/members/": TeamSchema,
  "POST /organizations/:id/members/": MemberListSchema,
  "PATCH /organizations/:id/members/:userId/": MemberListSchema,
  "DELETE /organizations/:id/members/:userId/": empty,
  "POST /organizations/:id/invitations/": InvitationSchema,
  "DELETE /organizations/:id/invitations/:invitationId/": empty,
  "GET /invitations/:token/": InvitationViewSchema,
  "POST /invitations/:token/accept/": InvitationViewSchema,
  "GET /promocodes/": PromoCodeListSchema,
  "POST /promocodes/": PromoCodeRecordSchema,
  "GET /promocodes/:id/": PromoCodeRecordSchema,
  "PUT /promocodes/:id/": PromoCodeRecordSchema,
  "PATCH /promocodes/:id/": PromoCodeRecordSchema,
  "DELETE /promocodes/:id/": empty,
  "POST /verification/coupon/": CouponViewSchema,
  "POST /sales/redeem/:id/": CouponViewSchema,
  "POST /sales/redeem/:id/undo/": CouponViewSchema,
  "GET /sales/today/": TodayRedemptionsSchema,
  "GET /sales/search/": FoundCouponsSchema,
  "GET /sales/partner/": PartnerSalesSchema,
  "GET /sales/partner/per_day/": SalesPerDaySchema,
  "POST /sales/become_partner/": ReceivedSchema,
  "GET /partner-leads/": PartnerLeadPageSchema,
  "GET /sales/refund_required/": RefundRequiredPageSchema,
  "POST /sales/refund/:id/": RefundAnswerSchema,
  "GET /sales/refund_requests/": RefundRequestPageSchema,
  "POST /sales/refund_requests/:id/": RefundDecisionAnswerSchema,
  // What a partner is owed: terms, statements, payouts
  "GET /organizations/:id/terms/": PartnerTermsSchema,
  "POST /organizations/:id/commission/": PartnerTermsSchema,
  "POST /organizations/:id/payable_on/": PartnerTermsSchema,
  "PUT /organizations/:id/payout_account/": PartnerTermsSchema,
  "GET /organizations/:id/statement_preview/": StatementPreviewSchema,
  "GET /statements/": StatementPageSchema,
  "POST /statements/": StatementSchema,
  "POST /statements/month/": MonthlyRunSchema,
  "GET /statements/:id/": StatementSchema,
  "GET /statements/:id/lines/": StatementLinePageSchema,
  "GET /statements/:id/statement.csv": notJson("text"),
  "GET /statements/:id/statement.pdf": notJson("pdf"),
  "POST /statements/:id/payout/": StatementSchema,
  "GET /users/": UserListSchema,
  "DELETE /users/:id/": empty,
} satisfies Record<string, z.ZodTypeAny | NotJson>;

export type Route = keyof typeof RESPONSES;

const patterns = Object.entries(RESPONSES).map(([route, answer]) => {
  const [method, path] = route.split(" ");
  const params = (path.match(/:\w+/g) ?? []).length;
  const source = path.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+");
  return { route: route as Route, method, regexp: new RegExp(`^${source}$`), params, answer: answer as z.ZodTypeAny | NotJson };
});
// A literal segment wins over a parameter (/public/offers/mainpage/ is not an offer's id).
patterns.sort((a, b) => a.params - b.params);

/** The route of a call (`GET`, `/public/offers/abc/?page=2`), or undefined when /api/v0 has none. */
export function routeOf(method: string, path: string) {
  const bare = path.split("?")[0];
  const upper = method.toUpperCase();
  return patterns.find((p) => p.method === upper && p.regexp.test(bare));
}

/** Whether an answer has a schema (JSON) or is described by its kind. */
export const isNotJson = (answer: z.ZodTypeAny | NotJson): answer is NotJson => "notJson" in answer;
