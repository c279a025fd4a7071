import { z } from "zod";
import "#rules/zod-es";

/** The PDF button beside each coupon of /order/history. */
export const couponDownloadSchema = z.object({
  intent: z.literal("download"),
  coupon: z.string({ required_error: "Falta el cupón." }).uuid("Cupón no válido."),
});
