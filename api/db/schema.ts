import { boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { RevisionChanges, RevisionStatus } from "#rules/offer-revisions";
import type { OfferStatus } from "#rules/offer-status";
import type { PayableMoment } from "#rules/payable";
import type { PartnerRole } from "#rules/partner-roles";

// Mirrors migrations/*.sql, which are the source of truth for the database itself.

export * from "./schema-money";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  email: text("email"),
  phone: text("phone"),
  website: text("website"),
  taxId: text("tax_id"),
  address: text("address").notNull().default(""),
  province: text("province"),
  logo: text("logo"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** 0041: the name on invoices, when the one buyers see is a brand. */
  legalName: text("legal_name"),
  /** 0041: which fact makes a coupon payable to it (rules/payable.ts). */
  payableOn: text("payable_on").$type<PayableMoment>().notNull().default("redeemed"),
});

export const organizationMembers = pgTable(
  "organization_members",
  {
    organizationId: uuid("organization_id").notNull(),
    userId: uuid("user_id").notNull(),
    role: text("role").$type<PartnerRole>().notNull().default("owner"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/** An owner's invitation by email, a membership once someone logged in with that address accepts it. */
export const memberInvitations = pgTable("member_invitations", {
  id: uuid("id").primaryKey().defaultRandom(),
  organizationId: uuid("organization_id").notNull(),
  email: text("email").notNull(),
  role: text("role").$type<PartnerRole>().notNull(),
  invitedBy: uuid("invited_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  acceptedBy: uuid("accepted_by"),
});

export const offers = pgTable("offers", {
  id: uuid("id").primaryKey().defaultRandom(),
  organizationId: uuid("organization_id").notNull(),
  title: text("title").notNull(),
  summary: text("summary").notNull(),
  description: text("description").notNull().default(""),
  conditions: text("conditions").notNull().default(""),
  category: text("category").notNull(),
  province: text("province").notNull(),
  address: text("address").notNull().default(""),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  offerType: text("offer_type").notNull().default("regular"),
  validFrom: date("valid_from"),
  validUntil: date("valid_until"),
  /** The last day on sale (0064), until 23:59 Madrid time; null: while active. */
  saleUntil: date("sale_until"),
  status: text("status").$type<OfferStatus>().notNull().default("active"),
  rank: integer("rank").notNull().default(1000),
  // Generated column (0006): search's words, folded with ofertas_fold(); never written.
  searchVector: text("search_vector"),
  reviewNote: text("review_note"),
  submittedAt: timestamp("submitted_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const offerImages = pgTable("offer_images", {
  id: uuid("id").primaryKey().defaultRandom(),
  offerId: uuid("offer_id").notNull(),
  imageUrl: text("image_url").notNull(),
  cover: boolean("cover").notNull().default(false),
  logo: boolean("logo").notNull().default(false),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  alt: text("alt").notNull().default(""),
  position: integer("position").notNull().default(0),
  variants: jsonb("variants").$type<{ url: string; width: number; height: number }[]>().notNull().default([]),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A change to an approved offer's words or prices, waiting for staff (0029, rules/offer-revisions.ts). */
export const offerRevisions = pgTable("offer_revisions", {
  id: uuid("id").primaryKey().defaultRandom(),
  offerId: uuid("offer_id").notNull(),
  status: text("status").$type<RevisionStatus>().notNull().default("pending"),
  changes: jsonb("changes").$type<RevisionChanges>().notNull(),
  submittedBy: uuid("submitted_by"),
  submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
  reviewedBy: uuid("reviewed_by"),
  reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
  reviewNote: text("review_note"),
});

export const mediaFiles = pgTable("media_files", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** The offer whose picture this is (0028); null only for a file an organisation's logo still names. */
  offerId: uuid("offer_id"),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const priceOptions = pgTable("price_options", {
  id: uuid("id").primaryKey().defaultRandom(),
  offerId: uuid("offer_id").notNull(),
  title: text("title").notNull(),
  actualPrice: numeric("actual_price", { precision: 10, scale: 2 }).notNull(),
  regularPrice: numeric("regular_price", { precision: 10, scale: 2 }).notNull(),
  available: integer("available").notNull(),
  perCustomer: integer("per_customer"),
  position: integer("position").notNull().default(0),
});

export const promoCodes = pgTable("promo_codes", {
  id: uuid("id").primaryKey().defaultRandom(),
  code: text("code").notNull(),
  discountType: text("discount_type").notNull(),
  discountValue: text("discount_value").notNull(),
  offerId: uuid("offer_id"),
  validFrom: timestamp("valid_from", { withTimezone: true }),
  validUntil: timestamp("valid_until", { withTimezone: true }),
  maxUses: integer("max_uses"),
  perCustomerLimit: integer("per_customer_limit"),
  usedCount: integer("used_count").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const checkoutSessions = pgTable("checkout_sessions", {
  token: text("token").primaryKey(),
  email: text("email").notNull(),
  items: jsonb("items").notNull(),
  checkoutData: jsonb("checkout_data").notNull(),
  totalCents: integer("total_cents").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const sales = pgTable("sales", {
  id: uuid("id").primaryKey().defaultRandom(),
  sessionToken: text("session_token").notNull(),
  email: text("email").notNull(),
  status: text("status").notNull(),
  provider: text("provider").notNull(),
  totalCents: integer("total_cents").notNull(),
  currency: text("currency").notNull().default("EUR"),
  checkoutData: jsonb("checkout_data").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  paidAt: timestamp("paid_at", { withTimezone: true }),
  userId: uuid("user_id"),
  /** The buyer's address as the API saw it (trusted proxy only), for the unpaid-reservation cap. */
  clientAddress: text("client_address"),
});

export const saleItems = pgTable("sale_items", {
  id: uuid("id").primaryKey().defaultRandom(),
  saleId: uuid("sale_id").notNull(),
  offerId: uuid("offer_id").notNull(),
  priceOptionId: uuid("price_option_id").notNull(),
  quantity: integer("quantity").notNull(),
  unitPriceCents: integer("unit_price_cents").notNull(),
  paidUnitCents: integer("paid_unit_cents").notNull(),
  promoCode: text("promo_code"),
  slotId: text("slot_id"),
  forPresent: boolean("for_present").notNull().default(false),
  giftRecipientName: text("gift_recipient_name"),
  /** 0066: «De parte de», the giver's name as they typed it. */
  giftSenderName: text("gift_sender_name"),
  giftRecipientEmail: text("gift_recipient_email"),
  giftMessage: text("gift_message"),
  giftSendOn: date("gift_send_on", { mode: "string" }),
});

export const promoCodeUses = pgTable("promo_code_uses", {
  id: uuid("id").primaryKey().defaultRandom(),
  promoCodeId: uuid("promo_code_id").notNull(),
  saleId: uuid("sale_id").notNull(),
  email: text("email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const paymentTransactions = pgTable("payment_transactions", {
  id: uuid("id").primaryKey().defaultRandom(),
  saleId: uuid("sale_id").notNull(),
  provider: text("provider").notNull(),
  providerRef: text("provider_ref"),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull().default("EUR"),
  status: text("status").notNull(),
  redirectUrl: text("redirect_url"),
  returnUrl: text("return_url").notNull(),
  cancelUrl: text("cancel_url").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Redsys's order number of a transaction, and what Redsys signed about it (migration 0050). */
export const redsysOrders = pgTable("redsys_orders", {
  orderNumber: text("order_number").primaryKey(),
  transactionId: uuid("transaction_id").notNull(),
  payMethod: text("pay_method").notNull(),
  merchantParameters: text("merchant_parameters").notNull(),
  responseCode: integer("response_code"),
  amountCents: integer("amount_cents"),
  currency: text("currency"),
  authorisationCode: text("authorisation_code"),
  notifiedAt: timestamp("notified_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Each refund asked of a provider (migration 0051). */
export const saleRefunds = pgTable("sale_refunds", {
  id: uuid("id").primaryKey().defaultRandom(),
  saleId: uuid("sale_id").notNull(),
  provider: text("provider").notNull(),
  requestedCents: integer("requested_cents"),
  refundedCents: integer("refunded_cents"),
  status: text("status").notNull(),
  reason: text("reason").notNull(),
  detail: text("detail"),
  requestedBy: uuid("requested_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const coupons = pgTable("coupons", {
  id: uuid("id").primaryKey().defaultRandom(),
  saleItemId: uuid("sale_item_id").notNull(),
  code: text("code").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
  redeemedBy: uuid("redeemed_by"),
  /** 0040: when it was refunded (markCouponsRefunded, or its sale stopped being paid). */
  refundedAt: timestamp("refunded_at", { withTimezone: true }),
  /** 0052: held by the buyer's refund request (api/services/sales/coupon-refunds.ts): not redeemable. */
  refundRequestedAt: timestamp("refund_requested_at", { withTimezone: true }),
  /** 0045: its sale's facts, copied when it is written (trigger coupons_sale_facts). */
  organizationId: uuid("organization_id"),
  offerId: uuid("offer_id"),
  paidAt: timestamp("paid_at", { withTimezone: true }),
  paidUnitCents: integer("paid_unit_cents"),
});

/** A buyer's «Solicitar devolución» of one coupon (migration 0052). */
export const couponRefundRequests = pgTable("coupon_refund_requests", {
  id: uuid("id").primaryKey().defaultRandom(),
  couponId: uuid("coupon_id").notNull(),
  saleId: uuid("sale_id").notNull(),
  status: text("status").notNull(),
  reason: text("reason").notNull().default(""),
  detail: text("detail"),
  amountCents: integer("amount_cents").notNull(),
  refundedCents: integer("refunded_cents"),
  requestedBy: uuid("requested_by"),
  decidedBy: uuid("decided_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const partnerLeads = pgTable("partner_leads", {
  id: uuid("id").primaryKey().defaultRandom(),
  businessName: text("business_name").notNull(),
  contactName: text("contact_name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  province: text("province").notNull(),
  category: text("category").notNull(),
  message: text("message").notNull().default(""),
  status: text("status").notNull().default("new"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const webhookEvents = pgTable("webhook_events", {
  provider: text("provider").notNull(),
  eventId: text("event_id").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export const offerCounts = pgTable("offer_counts", {
  category: text("category").notNull(),
  province: text("province").notNull(),
  n: integer("n").notNull(),
});

export const mailOutbox = pgTable("mail_outbox", {
  id: uuid("id").primaryKey().defaultRandom(),
  kind: text("kind").notNull(),
  recipient: text("recipient").notNull(),
  dedupeKey: text("dedupe_key").notNull(),
  data: jsonb("data").notNull(),
  status: text("status").notNull().default("queued"),
  attempts: integer("attempts").notNull().default(0),
  sendAfter: timestamp("send_after", { withTimezone: true }).notNull().defaultNow(),
  claimedUntil: timestamp("claimed_until", { withTimezone: true }),
  lastError: text("last_error"),
  messageId: text("message_id"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

export const mailSubscriptions = pgTable("mail_subscriptions", {
  email: text("email").primaryKey(),
  consentedAt: timestamp("consented_at", { withTimezone: true }).notNull(),
  consentSource: text("consent_source").notNull(),
  unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
});

export const offerFeedback = pgTable("offer_feedback", {
  id: uuid("id").primaryKey().defaultRandom(),
  offerId: uuid("offer_id").notNull(),
  email: text("email").notNull(),
  stars: integer("stars").notNull(),
  comment: text("comment").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull(),
  passwordHash: text("password_hash"),
  isActive: boolean("is_active").notNull().default(true),
  role: text("role").notNull().default("customer"),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
});

export const accountSessions = pgTable("account_sessions", {
  id: uuid("id").primaryKey(),
  userId: uuid("user_id").notNull(),
  device: text("device").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

export const refreshTokens = pgTable("refresh_tokens", {
  jti: uuid("jti").primaryKey(),
  /** The session (account_sessions.id) this token belongs to. */
  familyId: uuid("family_id").notNull(),
  userId: uuid("user_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  replacedBy: uuid("replaced_by"),
});

export const passwordLockouts = pgTable("password_lockouts", {
  email: text("email").primaryKey(),
  lockedAt: timestamp("locked_at", { withTimezone: true }).notNull().defaultNow(),
});

export const loginCodes = pgTable("login_codes", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull(),
  purpose: text("purpose").notNull(),
  codeHash: text("code_hash").notNull(),
  userId: uuid("user_id"),
  newEmail: text("new_email"),
  attempts: integer("attempts").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

export const favorites = pgTable("favorites", {
  userId: uuid("user_id").notNull(),
  offerId: uuid("offer_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const customerCarts = pgTable("customer_carts", {
  userId: uuid("user_id").primaryKey(),
  cart: jsonb("cart").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const anonymousSessions = pgTable("anonymous_sessions", {
  id: uuid("id").primaryKey().defaultRandom(),
  favorites: jsonb("favorites").notNull().default([]),
  cart: jsonb("cart"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  mergedInto: uuid("merged_into"),
});
