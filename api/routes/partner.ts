import { Router } from "express";
import type { Database } from "#api/db/client";
import type { Identify } from "#api/services/access";
import { partnerImagesRouter } from "#api/routes/partner-images";
import { partnerOffersRouter } from "#api/routes/partner-offers";
import { partnerOrganizationsRouter } from "#api/routes/partner-organizations";
import { partnerPromoCodesRouter } from "#api/routes/partner-promo-codes";

/**
 * The partner portal's API, one router a file. The order matters: the pictures' /offers/images/
 * and the offers' /offers/dictionaries/ and /offers/revisions/ come before /offers/:id/.
 */
export function partnerRouter(deps: { db: Database; identify: Identify }): Router {
  const router = Router();
  router.use(partnerImagesRouter(deps));
  router.use(partnerOffersRouter(deps));
  router.use(partnerOrganizationsRouter(deps));
  router.use(partnerPromoCodesRouter(deps));
  return router;
}
