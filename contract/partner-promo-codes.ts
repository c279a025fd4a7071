import { z } from "zod";
import { defineRoute, NoContent } from "#contract/define-route";
import { PromoCodePatchSchema, PromoCodeSchema } from "#contract/partner";
import { blank } from "#contract/page";
import { PromoCodeListSchema, PromoCodeRecordSchema } from "#contract/partner-responses";

/** GET /promocodes/: one offer's codes, or those whose code contains the search. */
export const PromoCodesQuerySchema = z.object({
  offer: z.preprocess(blank, z.string().uuid().optional()),
  search: z.preprocess(blank, z.string().max(40).optional()),
});

/** A partner's promo codes for its offers. */
export const partnerPromoCodesRoutes = {
  list: defineRoute({ method: "GET", path: "/promocodes/", query: PromoCodesQuerySchema, answer: PromoCodeListSchema }),
  create: defineRoute({ method: "POST", path: "/promocodes/", body: PromoCodeSchema, answer: PromoCodeRecordSchema }),
  get: defineRoute({ method: "GET", path: "/promocodes/:id/", answer: PromoCodeRecordSchema }),
  replace: defineRoute({ method: "PUT", path: "/promocodes/:id/", body: PromoCodeSchema, answer: PromoCodeRecordSchema }),
  update: defineRoute({ method: "PATCH", path: "/promocodes/:id/", body: PromoCodePatchSchema, answer: PromoCodeRecordSchema }),
  delete: defineRoute({ method: "DELETE", path: "/promocodes/:id/", answer: NoContent }),
};
