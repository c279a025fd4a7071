import { boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

// Mirrors migrations/*.sql, which are the source of truth for the database itself.

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  email: text("email"),
  phone: text("phone"),
  website: text("website"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
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
  status: text("status").notNull().default("active"),
  rank: integer("rank").notNull().default(1000),
  searchText: text("search_text"),
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

export const coupons = pgTable("coupons", {
  id: uuid("id").primaryKey().defaultRandom(),
  saleItemId: uuid("sale_item_id").notNull(),
  code: text("code").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const webhookEvents = pgTable("webhook_events", {
  provider: text("provider").notNull(),
  eventId: text("event_id").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
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

export const refreshTokens = pgTable("refresh_tokens", {
  jti: uuid("jti").primaryKey(),
  familyId: uuid("family_id").notNull(),
  userId: uuid("user_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
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
