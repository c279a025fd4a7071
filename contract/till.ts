import { z } from "zod";

/** One coupon redeemed today at the partner's tills: only what the counter needs, no buyer's data. */
export const TodayRedemptionSchema = z.object({
  uuid: z.string(),
  redeemed_at: z.string(),
  code_last4: z.string(),
  offer_title: z.string(),
  option_title: z.string(),
  member_email: z.string().nullable(),
});
export type TodayRedemption = z.infer<typeof TodayRedemptionSchema>;

export const TodayRedemptionsSchema = z.object({ count: z.number().int(), results: z.array(TodayRedemptionSchema) });
export type TodayRedemptions = z.infer<typeof TodayRedemptionsSchema>;

/** The search when the code is lost: a buyer's name or email, three characters at least. */
export const BuyerSearchSchema = z.object({
  q: z
    .string({ required_error: "Escribe el nombre o el email del cliente." })
    .trim()
    .min(3, "Escribe al menos 3 letras del nombre o del email.")
    .max(120, "Escribe como mucho 120 caracteres."),
});

/** A coupon found by its buyer, still to redeem, of this partner's offers only. */
export const FoundCouponSchema = z.object({
  uuid: z.string(),
  code: z.string(),
  offer_title: z.string(),
  option_title: z.string(),
  buyer_first_name: z.string().nullable(),
});
export const FoundCouponsSchema = z.object({ results: z.array(FoundCouponSchema) });
export type FoundCoupon = z.infer<typeof FoundCouponSchema>;
