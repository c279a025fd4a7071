import { z } from "zod";
import { defineRoute } from "#contract/define-route";
import { BecomePartnerSchema, CouponCodeSchema, SalesQuerySchema } from "#contract/partner";
import {
  CouponViewSchema,
  PartnerLeadPageSchema,
  PartnerSalesSchema,
  ReceivedSchema,
  SalesPerDaySchema,
} from "#contract/partner-responses";
import { PageQuerySchema } from "#contract/page";
import { BuyerSearchSchema, FoundCouponsSchema, TodayRedemptionsSchema } from "#contract/till";

/**
 * «Publica tu oferta»: the lead, and the captcha's proof beside it (the widget's token, or the
 * storefront's word that no script ran), which the API checks from the raw body.
 */
const BecomePartnerRequestSchema = BecomePartnerSchema.extend({
  captcha_token: z.unknown().optional(),
  captcha_noscript: z.unknown().optional(),
});

/**
 * The till (verify, redeem, undo, today's redemptions, the search when the code is lost), the
 * partner's sales and their chart, «Publica tu oferta» and staff's list of its leads.
 */
export const partnerSalesRoutes = {
  verifyCoupon: defineRoute({ method: "POST", path: "/verification/coupon/", body: CouponCodeSchema, answer: CouponViewSchema }),
  redeem: defineRoute({ method: "POST", path: "/sales/redeem/:id/", answer: CouponViewSchema }),
  undoRedemption: defineRoute({ method: "POST", path: "/sales/redeem/:id/undo/", answer: CouponViewSchema }),
  redeemedToday: defineRoute({ method: "GET", path: "/sales/today/", answer: TodayRedemptionsSchema }),
  findCoupons: defineRoute({ method: "GET", path: "/sales/search/", query: BuyerSearchSchema, answer: FoundCouponsSchema }),
  /** JSON, or with ?format=csv the same rows as a CSV file (the storefront fetches it with callFile). */
  sales: defineRoute({ method: "GET", path: "/sales/partner/", query: SalesQuerySchema, answer: PartnerSalesSchema }),
  salesPerDay: defineRoute({ method: "GET", path: "/sales/partner/per_day/", query: SalesQuerySchema, answer: SalesPerDaySchema }),
  becomePartner: defineRoute({ method: "POST", path: "/sales/become_partner/", body: BecomePartnerRequestSchema, answer: ReceivedSchema }),
  leads: defineRoute({ method: "GET", path: "/partner-leads/", query: PageQuerySchema, answer: PartnerLeadPageSchema }),
};
