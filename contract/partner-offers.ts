import { z } from "zod";
import { CATEGORY_IDS } from "#rules/categories";
import { OFFER_STATUSES } from "#rules/offer-status";
import { defineRoute, NoContent } from "#contract/define-route";
import { OfferPatchSchema, OfferSchema, RevisionDecisionSchema } from "#contract/partner";
import { blank, pageFields, PageQuerySchema } from "#contract/page";
import {
  DictionariesSchema,
  OfferRevisionPageSchema,
  OfferRevisionSchema,
  PartnerOfferPageSchema,
  PartnerOfferSchema,
} from "#contract/partner-responses";

/** GET /offers/: the portal's filter of the offers, a page at a time. */
export const PartnerOffersQuerySchema = z.object({
  status: z.preprocess(blank, z.enum(OFFER_STATUSES, { errorMap: () => ({ message: "Estado de oferta desconocido." }) }).optional()),
  category: z.preprocess(blank, z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Categoría desconocida." }) }).optional()),
  region: z.preprocess(blank, z.string().max(60).optional()),
  search: z.preprocess(blank, z.string().max(200).optional()),
  organization: z.preprocess(blank, z.string().uuid("Empresa no válida.").optional()),
  ...pageFields,
});

/**
 * The portal's offers: the dictionaries their forms choose from, the offers, and the changes to
 * offers on sale waiting for staff. /offers/dictionaries/, /offers/revisions/ (and the pictures'
 * /offers/images/) are registered before /offers/:id/, which would take them for an id.
 */
export const partnerOffersRoutes = {
  /** The lists in rules/ with their Spanish labels. Public, cacheable. */
  dictionaries: defineRoute({ method: "GET", path: "/offers/dictionaries/", answer: DictionariesSchema }),
  revisions: defineRoute({ method: "GET", path: "/offers/revisions/", query: PageQuerySchema, answer: OfferRevisionPageSchema }),
  decideRevision: defineRoute({
    method: "PATCH",
    path: "/offers/revisions/:id/",
    body: RevisionDecisionSchema,
    answer: OfferRevisionSchema,
  }),
  withdrawRevision: defineRoute({ method: "DELETE", path: "/offers/revisions/:id/", answer: NoContent }),
  list: defineRoute({ method: "GET", path: "/offers/", query: PartnerOffersQuerySchema, answer: PartnerOfferPageSchema }),
  create: defineRoute({ method: "POST", path: "/offers/", body: OfferSchema, answer: PartnerOfferSchema }),
  get: defineRoute({ method: "GET", path: "/offers/:id/", answer: PartnerOfferSchema }),
  replace: defineRoute({ method: "PUT", path: "/offers/:id/", body: OfferSchema, answer: PartnerOfferSchema }),
  update: defineRoute({ method: "PATCH", path: "/offers/:id/", body: OfferPatchSchema, answer: PartnerOfferSchema }),
  delete: defineRoute({ method: "DELETE", path: "/offers/:id/", answer: NoContent }),
};
