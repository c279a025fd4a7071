/**
 * What a partner is owed, as the API answers it and takes it: commission, the payable moment,
 * the payout account, statements and their lines, payouts. Money is the API's decimal text
 * («12.50»); the services compute it in cents (rules/commission.ts).
 */
import { z } from "zod";
import "#rules/zod-es";
import { BP, FIXED_CENTS_MAX } from "#rules/commission";
import { IBAN_INVALID_MESSAGE, isValidIban, normalizeIban } from "#rules/iban";
import { PAYABLE_MOMENTS } from "#rules/payable";
import { MONTH_PATTERN } from "#rules/statements";
import { isValidSpanishTaxId, normalizeTaxId } from "#rules/tax-id";
import { pageOf } from "#contract/offers";
import { blank, PageQuerySchema } from "#contract/page";
import { defineRoute, notJson } from "#contract/define-route";

const nullableText = z.string().nullable();
const money = z.string();

export const dayField = z
  .string({ required_error: "Escribe una fecha." })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Escribe una fecha válida (aaaa-mm-dd).")
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
  }, "Escribe una fecha válida (aaaa-mm-dd).");

export const monthField = z.string({ required_error: "Elige un mes." }).regex(MONTH_PATTERN, "Elige un mes válido (aaaa-mm).");

// ───────────── inputs ─────────────

/** Staff set an organisation's commission from a day on (sales of that day and after). */
export const CommissionRateInputSchema = z.object({
  valid_from: dayField,
  percent_bp: z.coerce
    .number({ invalid_type_error: "Escribe el porcentaje de comisión." })
    .int("El porcentaje admite como mucho dos decimales.")
    .min(0, "La comisión no puede ser negativa.")
    .max(BP, "La comisión no puede pasar del 100 %."),
  fixed_cents: z.coerce
    .number({ invalid_type_error: "Escribe el importe fijo por cupón." })
    .int("El importe fijo va en céntimos enteros.")
    .min(0, "El importe fijo no puede ser negativo.")
    .max(FIXED_CENTS_MAX, "El importe fijo por cupón no puede pasar de 1.000 €.")
    .default(0),
});
export type CommissionRateInput = z.infer<typeof CommissionRateInputSchema>;

/** Staff: which fact makes the organisation's coupons payable. */
export const PayableMomentInputSchema = z.object({
  payable_on: z.enum(PAYABLE_MOMENTS, { errorMap: () => ({ message: "Elige cuándo se paga un cupón." }) }),
});

/** The account payouts go to (the partner or staff). */
export const PayoutAccountInputSchema = z.object({
  iban: z
    .string({ required_error: "Escribe el IBAN." })
    .trim()
    .min(1, "Escribe el IBAN.")
    .refine(isValidIban, IBAN_INVALID_MESSAGE)
    .transform(normalizeIban),
});

/** What a statement needs of the organisation: who it is for the tax office. */
export const LegalIdentityInputSchema = z.object({
  legal_name: z.string().trim().min(2, "Escribe la razón social.").max(200, "Como máximo 200 caracteres."),
  tax_id: z
    .string()
    .trim()
    .refine(isValidSpanishTaxId, "El NIF o CIF no es válido. Revisa los números y la letra.")
    .transform(normalizeTaxId),
  address: z.string().trim().min(5, "Escribe la dirección fiscal.").max(300, "Como máximo 300 caracteres."),
});

/** Staff issue a statement now, for a range of days (from and to both included), not only a month. */
export const IssueStatementInputSchema = z
  .object({ organization: z.string().uuid("Empresa no válida."), date_from: dayField, date_to: dayField })
  .refine((v) => v.date_to >= v.date_from, { path: ["date_to"], message: "La fecha de fin es anterior a la de inicio." });

/** Staff issue a month's statements for every organisation (what the monthly run does). */
export const IssueMonthInputSchema = z.object({ month: monthField });

/** Staff record the transfer that paid a statement. */
export const PayoutInputSchema = z.object({
  paid_on: dayField,
  transfer_reference: z
    .string({ required_error: "Escribe la referencia de la transferencia." })
    .trim()
    .min(1, "Escribe la referencia de la transferencia.")
    .max(140, "Como máximo 140 caracteres (lo que admite una transferencia SEPA)."),
});
export type PayoutInput = z.infer<typeof PayoutInputSchema>;

/** A list of statements: one organisation's (staff; a partner sees its own anyway), or only those waiting for a transfer. */
export const StatementListQuerySchema = z.object({
  organization: z.preprocess(blank, z.string().uuid("Empresa no válida.").optional()),
  state: z.preprocess(blank, z.enum(["pending"]).optional()),
});

// ───────────── answers ─────────────

export const CommissionRateSchema = z.object({
  uuid: z.string().nullable(),
  valid_from: nullableText,
  percent_bp: z.number().int(),
  fixed_cents: z.number().int(),
  /** «20 % + 0,50 € por cupón». */
  label: z.string(),
  /** The shop's standard rate: staff never set one for this organisation (yet, on that day). */
  standard: z.boolean(),
  created_at: nullableText,
});
export type CommissionRateView = z.infer<typeof CommissionRateSchema>;

/** What the organisation's owner sees of its terms, and what staff set. */
export const PartnerTermsSchema = z.object({
  organization: z.object({ uuid: z.string(), name: z.string(), legal_name: z.string(), tax_id: nullableText, address: z.string() }),
  commission: z.object({
    /** The rate of a sale made today. */
    current: CommissionRateSchema,
    /** Rates set to start after today. */
    upcoming: z.array(CommissionRateSchema),
    /** Every rate ever set, newest first; a row replaced by a later one of the same day says so. */
    history: z.array(CommissionRateSchema.extend({ replaced: z.boolean() })),
  }),
  payable_on: z.enum(PAYABLE_MOMENTS),
  payable_on_label: z.string(),
  payable_on_terms: z.string(),
  /** «ES** **** **** **** **** 1332», or null when none is set (statements are then not paid). */
  payout_account: z.object({ iban_masked: z.string(), set_at: z.string() }).nullable(),
  /** What issued, unpaid statements add up to. */
  pending_payout: money,
});
export type PartnerTerms = z.infer<typeof PartnerTermsSchema>;

export const PAYOUT_STATES = ["paid", "pending", "carried", "to_offset", "nothing"] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const StatementSummarySchema = z.object({
  uuid: z.string(),
  number: z.string(),
  organization: z.object({ uuid: z.string(), name: z.string() }),
  period_start: z.string(),
  period_end: z.string(),
  /** «octubre de 2026». */
  period_label: z.string(),
  issued_at: z.string(),
  counts: z.object({ sold: z.number().int(), refunded: z.number().int(), redeemed: z.number().int(), expired: z.number().int() }),
  line_count: z.number().int(),
  gross: money,
  commission: money,
  vat: money,
  net: money,
  /** A negative balance of the statement before, set off here (≤ 0). */
  carried: money,
  /** What the shop pays: net + carried. */
  payable: money,
  invoice_number: nullableText,
  rectifying_number: nullableText,
  payout: z.object({
    state: z.enum(PAYOUT_STATES),
    /** «Pagada», «Pendiente de pago», «Compensada en L-…», «A compensar», «Sin importe». */
    label: z.string(),
    paid_on: nullableText,
    transfer_reference: nullableText,
  }),
});
export type StatementSummary = z.infer<typeof StatementSummarySchema>;

const Party = z.object({ name: z.string(), tax_id: nullableText, address: z.string() });
const Invoice = z.object({ number: z.string(), base: money, vat: money, total: money });

export const StatementSchema = StatementSummarySchema.extend({
  payable_on: z.enum(PAYABLE_MOMENTS),
  payable_on_label: z.string(),
  payable_on_terms: z.string(),
  vat_rate_bp: z.number().int(),
  partner: Party.extend({ iban_masked: nullableText }),
  shop: Party,
  invoice: Invoice.nullable(),
  rectifying_invoice: Invoice.extend({ rectifies: z.array(z.string()) }).nullable(),
  /** Staff only (the transfer needs it); null for a partner. */
  payout_iban: nullableText,
});
export type StatementView = z.infer<typeof StatementSchema>;

/** A line: one coupon whose facts moved since its last statement. Each fact is +1, −1 (undone) or 0. */
export const StatementLineSchema = z.object({
  line_no: z.number().int(),
  coupon: z.object({ uuid: z.string(), code: z.string() }),
  sale_id: z.string(),
  sold_at: z.string(),
  offer_title: z.string(),
  option_title: z.string(),
  facts: z.object({
    sold: z.number().int(),
    refunded: z.number().int(),
    redeemed: z.number().int(),
    expired: z.number().int(),
    payable: z.number().int(),
  }),
  /** «Vendido · Canjeado», «Canje deshecho»… */
  facts_label: z.string(),
  redeemed_at: nullableText,
  refunded_at: nullableText,
  rate: z.string().nullable(),
  gross: money,
  commission: money,
  vat: money,
  net: money,
});
export type StatementLineView = z.infer<typeof StatementLineSchema>;

export const StatementPageSchema = pageOf(StatementSummarySchema);
export const StatementLinePageSchema = pageOf(StatementLineSchema);

const Counts = StatementSummarySchema.shape.counts;

/** «Pendiente de liquidar»: what a statement issued now would say (nothing is written). */
export const StatementPreviewSchema = z.object({
  /** The instant it was computed for. */
  until: z.string(),
  line_count: z.number().int(),
  counts: Counts,
  gross: money,
  commission: money,
  vat: money,
  net: money,
});
export type StatementPreview = z.infer<typeof StatementPreviewSchema>;

/** What a run of the month's statements did: issued now, issued before, nothing to state, failed (retried on the next run). */
export const MonthlyRunSchema = z.object({
  month: z.string(),
  issued: z.number().int(),
  already: z.number().int(),
  nothing: z.number().int(),
  failed: z.number().int(),
  /** Why nothing was issued at all (the shop's tax identity is missing). */
  refused: z.string().optional(),
});
export type MonthlyRun = z.infer<typeof MonthlyRunSchema>;

/**
 * What a partner is owed: an organisation's terms (a member reads its own and sets its IBAN; staff
 * set the rest), its statements, their lines and files, and the payouts staff record.
 */
export const statementsRoutes = {
  terms: defineRoute({ method: "GET", path: "/organizations/:id/terms/", answer: PartnerTermsSchema }),
  setCommission: defineRoute({
    method: "POST",
    path: "/organizations/:id/commission/",
    body: CommissionRateInputSchema,
    answer: PartnerTermsSchema,
  }),
  setPayableOn: defineRoute({
    method: "POST",
    path: "/organizations/:id/payable_on/",
    body: PayableMomentInputSchema,
    answer: PartnerTermsSchema,
  }),
  setIban: defineRoute({
    method: "PUT",
    path: "/organizations/:id/payout_account/",
    body: PayoutAccountInputSchema,
    answer: PartnerTermsSchema,
  }),
  preview: defineRoute({ method: "GET", path: "/organizations/:id/statement_preview/", answer: StatementPreviewSchema }),
  statements: defineRoute({
    method: "GET",
    path: "/statements/",
    query: StatementListQuerySchema.merge(PageQuerySchema),
    answer: StatementPageSchema,
  }),
  issueStatement: defineRoute({ method: "POST", path: "/statements/", body: IssueStatementInputSchema, answer: StatementSchema }),
  issueMonth: defineRoute({ method: "POST", path: "/statements/month/", body: IssueMonthInputSchema, answer: MonthlyRunSchema }),
  statement: defineRoute({ method: "GET", path: "/statements/:id/", answer: StatementSchema }),
  statementLines: defineRoute({ method: "GET", path: "/statements/:id/lines/", query: PageQuerySchema, answer: StatementLinePageSchema }),
  statementCsv: defineRoute({ method: "GET", path: "/statements/:id/statement.csv", answer: notJson("text") }),
  statementPdf: defineRoute({ method: "GET", path: "/statements/:id/statement.pdf", answer: notJson("pdf") }),
  payStatement: defineRoute({ method: "POST", path: "/statements/:id/payout/", body: PayoutInputSchema, answer: StatementSchema }),
};
