/**
 * Every route of /api/v0, gathered from the contract's files (contract/<resource>.ts, declared
 * with defineRoute): the API's tests parse each answer with its route's schema, metrics and logs
 * name a call by its route.
 */
import type { RouteSpec } from "#contract/define-route";
import { feedbackRoutes } from "#contract/feedback";
import { authRoutes } from "#contract/auth";
import { socialAuthRoutes } from "#contract/social-auth";
import { verificationRoutes } from "#contract/verification";
import { usersRoutes } from "#contract/users";
import { sessionsRoutes } from "#contract/sessions";
import { staffUsersRoutes } from "#contract/staff-users";
import { customerRoutes } from "#contract/customer";
import { partnerSalesRoutes } from "#contract/partner-sales";
import { publicOffersRoutes } from "#contract/public-offers";
import { customerMailRoutes } from "#contract/customer-mail";
import { customerDataRoutes } from "#contract/customer-data";
import { partnerMembersRoutes } from "#contract/partner-members";
import { partnerImagesRoutes } from "#contract/partner-images";
import { partnerOffersRoutes } from "#contract/partner-offers";
import { partnerOrganizationsRoutes } from "#contract/partner-organizations";
import { partnerPromoCodesRoutes } from "#contract/partner-promo-codes";
import { salesRoutes } from "#contract/sales";
import { sandboxRoutes } from "#contract/sandbox";
import { redsysRoutes } from "#contract/redsys";
import { refundsRoutes } from "#contract/refunds";
import { statementsRoutes } from "#contract/statements";

/** Each resource's declarations: api/routes/X.ts registers those of contract/X.ts. */
const DECLARED: Record<string, RouteSpec>[] = [
  salesRoutes,
  sandboxRoutes,
  redsysRoutes,
  feedbackRoutes,
  partnerSalesRoutes,
  refundsRoutes,
  statementsRoutes,
  customerMailRoutes,
  customerRoutes,
  customerDataRoutes,
  publicOffersRoutes,
  authRoutes,
  socialAuthRoutes,
  verificationRoutes,
  usersRoutes,
  sessionsRoutes,
  partnerMembersRoutes,
  partnerImagesRoutes,
  partnerOffersRoutes,
  partnerOrganizationsRoutes,
  partnerPromoCodesRoutes,
  staffUsersRoutes,
];

/** Every route of the API. */
export const ROUTES: RouteSpec[] = DECLARED.flatMap((routes) => Object.values(routes));

const patterns = ROUTES.map((route) => {
  const params = (route.path.match(/:\w+/g) ?? []).length;
  const source = route.path.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+");
  return { route, regexp: new RegExp(`^${source}$`), params };
});
// A literal segment wins over a parameter (/public/offers/mainpage/ is not an offer's id).
patterns.sort((a, b) => a.params - b.params);

/** The route of a call (`GET`, `/public/offers/abc/?page=2`), or undefined when /api/v0 has none. */
export function routeOf(method: string, path: string): RouteSpec | undefined {
  const bare = path.split("?")[0];
  const upper = method.toUpperCase();
  return patterns.find((p) => p.route.method === upper && p.regexp.test(bare))?.route;
}
