import { z } from "zod";
import "#rules/zod-es";
import { COUPON_STATES, normalizeCouponCode } from "#rules/coupons";
import { pageOf } from "#contract/offers";
import { PageQuerySchema } from "#contract/page";
import { RefundRequiredPageSchema } from "#contract/partner-responses";
import { defineRoute } from "#contract/define-route";

/**
 * What became of a buyer's «Solicitar devolución» of one coupon: «refunded» (the money went back
 * through the sale's provider), «review» (in the staff queue), «refused» (with the reason), or
 * «processing» (the provider is being asked right now).
 */
export const REFUND_OUTCOMES = ["processing", "refunded", "review", "refused"] as const;
export type RefundOutcome = (typeof REFUND_OUTCOMES)[number];

/** A coupon's request as its buyer sees it: the outcome, in words, and what came back. */
export const CouponRefundSchema = z.object({
  outcome: z.enum(REFUND_OUTCOMES),
  detail: z.string(),
  /** Euros given back («12.00»); null until they are. */
  refunded: z.string().nullable(),
  at: z.string(),
});
export type CouponRefund = z.infer<typeof CouponRefundSchema>;

/**
 * A coupon of a purchase with what its buyer can do about it: its state (as at the till),
 * `refundable` (the server's word that «Solicitar devolución» may be offered) and its refund
 * request, if any.
 */
export const CouponStatusSchema = z.object({
  uuid: z.string(),
  code: z.string(),
  state: z.enum(COUPON_STATES),
  refundable: z.boolean().default(false),
  refund: CouponRefundSchema.nullable().default(null),
});
export type CouponStatus = z.infer<typeof CouponStatusSchema>;

/**
 * POST /sales/purchase/{sale}/refund/: the buyer asks for one coupon's money back. The logged-in
 * owner of the sale sends no `sig`; a guest sends the signature of the mail's coupons link.
 */
export const CouponRefundRequestSchema = z.object({
  coupon: z
    .string({ required_error: "Indica el cupón." })
    .max(40, "Ese no es un código de cupón.")
    .transform((v, ctx) => {
      const code = normalizeCouponCode(v);
      if (!code) ctx.addIssue({ code: "custom", message: "Ese no es un código de cupón: son 12 letras y números." });
      return code ?? "";
    }),
  sig: z.string().max(200).optional(),
});

/** Its answer: 200 (refunded, review, processing) or 409 (refused), always this shape. */
export const CouponRefundAnswerSchema = CouponRefundSchema.extend({ sale_id: z.string(), code: z.string() });
export type CouponRefundAnswer = z.infer<typeof CouponRefundAnswerSchema>;

/** GET /sales/refund_requests/ (staff): a request waiting for a decision. */
export const RefundRequestRowSchema = z.object({
  id: z.string(),
  sale_id: z.string(),
  code: z.string(),
  email: z.string(),
  offer_title: z.string(),
  amount: z.string(),
  provider: z.string(),
  status: z.enum(REFUND_OUTCOMES),
  reason: z.string(),
  detail: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type RefundRequestRow = z.infer<typeof RefundRequestRowSchema>;
export const RefundRequestPageSchema = pageOf(RefundRequestRowSchema);

/** POST /sales/refund_requests/{id}/ (staff): approve gives the money back; refuse tells the buyer why. */
export const RefundDecisionSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve") }),
  z.object({
    decision: z.literal("refuse"),
    reason: z
      .string()
      .trim()
      .min(5, "Escribe al comprador por qué no procede (al menos 5 caracteres).")
      .max(500, "Como máximo 500 caracteres."),
  }),
]);
export const RefundDecisionAnswerSchema = z.object({ id: z.string(), status: z.enum(REFUND_OUTCOMES), detail: z.string() });
export type RefundDecisionAnswer = z.infer<typeof RefundDecisionAnswerSchema>;

/**
 * POST /sales/refund/{id}/ (staff): the money of a sale that owes it went back through its
 * provider. A refusal, or an answer that never came, is an error with its detail.
 */
export const RefundAnswerSchema = z.object({
  sale_id: z.string(),
  status: z.literal("refunded"),
  refunded: z.string(),
  detail: z.string(),
});
export type RefundAnswer = z.infer<typeof RefundAnswerSchema>;

/**
 * Staff: the sales whose money must go back and giving it back; the buyer's «Solicitar
 * devolución» of one coupon, and staff's queue of the requests that need a decision.
 */
export const refundsRoutes = {
  refundRequired: defineRoute({ method: "GET", path: "/sales/refund_required/", query: PageQuerySchema, answer: RefundRequiredPageSchema }),
  refund: defineRoute({ method: "POST", path: "/sales/refund/:id/", answer: RefundAnswerSchema }),
  /** 200 or, refused, 409: the same shape. */
  requestCouponRefund: defineRoute({
    method: "POST",
    path: "/sales/purchase/:id/refund/",
    body: CouponRefundRequestSchema,
    answer: CouponRefundAnswerSchema,
  }),
  refundRequests: defineRoute({ method: "GET", path: "/sales/refund_requests/", query: PageQuerySchema, answer: RefundRequestPageSchema }),
  decideRefund: defineRoute({
    method: "POST",
    path: "/sales/refund_requests/:id/",
    body: RefundDecisionSchema,
    answer: RefundDecisionAnswerSchema,
  }),
};
