import { bigint, date, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { PayableMoment } from "#rules/payable";

// What a partner is owed (migrations 0041 and 0042), mirrored for drizzle; the SQL is the source of truth.

export const commissionRates = pgTable("commission_rates", {
  id: uuid("id").primaryKey().defaultRandom(),
  organizationId: uuid("organization_id").notNull(),
  validFrom: date("valid_from").notNull(),
  percentBp: integer("percent_bp").notNull(),
  fixedCents: integer("fixed_cents").notNull().default(0),
  createdBy: uuid("created_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const payoutAccounts = pgTable("payout_accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  organizationId: uuid("organization_id").notNull(),
  iban: text("iban").notNull(),
  createdBy: uuid("created_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const documentNumbers = pgTable(
  "document_numbers",
  { series: text("series").notNull(), year: integer("year").notNull(), last: integer("last").notNull() },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/** Who is who on a statement, as on the day it was issued. */
export type StatementParty = { name: string; legal_name: string; tax_id: string | null; address: string; iban: string | null };
export type ShopParty = { name: string; tax_id: string; address: string };

const cents = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

export const statements = pgTable("statements", {
  id: uuid("id").primaryKey().defaultRandom(),
  organizationId: uuid("organization_id").notNull(),
  periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
  periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
  number: text("number"),
  issuedAt: timestamp("issued_at", { withTimezone: true }),
  payableOn: text("payable_on").$type<PayableMoment>().notNull(),
  partner: jsonb("partner").$type<StatementParty>().notNull(),
  shop: jsonb("shop").$type<ShopParty>().notNull(),
  vatRateBp: integer("vat_rate_bp").notNull(),
  lineCount: integer("line_count").notNull().default(0),
  sold: integer("sold").notNull().default(0),
  refunded: integer("refunded").notNull().default(0),
  redeemed: integer("redeemed").notNull().default(0),
  expired: integer("expired").notNull().default(0),
  grossCents: cents("gross_cents"),
  commissionCents: cents("commission_cents"),
  vatCents: cents("vat_cents"),
  netCents: cents("net_cents"),
  invoiceNumber: text("invoice_number"),
  invoiceBaseCents: cents("invoice_base_cents"),
  invoiceVatCents: cents("invoice_vat_cents"),
  rectifyingNumber: text("rectifying_number"),
  rectifyingBaseCents: cents("rectifying_base_cents"),
  rectifyingVatCents: cents("rectifying_vat_cents"),
  rectifiedInvoices: text("rectified_invoices").array().notNull().default([]),
  carriedFrom: uuid("carried_from"),
  carriedCents: cents("carried_cents"),
  payableCents: cents("payable_cents"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const statementLines = pgTable(
  "statement_lines",
  {
    statementId: uuid("statement_id").notNull(),
    lineNo: integer("line_no").notNull(),
    organizationId: uuid("organization_id").notNull(),
    couponId: uuid("coupon_id").notNull(),
    saleId: uuid("sale_id").notNull(),
    code: text("code").notNull(),
    soldAt: timestamp("sold_at", { withTimezone: true }).notNull(),
    offerTitle: text("offer_title").notNull(),
    optionTitle: text("option_title").notNull(),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    validUntil: date("valid_until"),
    sold: smallint("sold").notNull(),
    refunded: smallint("refunded").notNull(),
    redeemed: smallint("redeemed").notNull(),
    expired: smallint("expired").notNull(),
    payable: smallint("payable").notNull(),
    percentBp: integer("percent_bp"),
    fixedCents: integer("fixed_cents"),
    grossCents: integer("gross_cents").notNull(),
    commissionCents: integer("commission_cents").notNull(),
    vatCents: integer("vat_cents").notNull(),
    netCents: integer("net_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.lineNo] })],
);

export const statementPayouts = pgTable("statement_payouts", {
  statementId: uuid("statement_id").primaryKey(),
  paidOn: date("paid_on").notNull(),
  transferReference: text("transfer_reference").notNull(),
  amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
  iban: text("iban").notNull(),
  recordedBy: uuid("recorded_by"),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
});
