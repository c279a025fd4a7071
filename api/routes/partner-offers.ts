import { Router, type Request } from "express";
import { z } from "zod";
import { CATEGORY_IDS, CATEGORY_LABELS, OFFER_TYPE_LABELS, OFFER_TYPES } from "#rules/categories";
import { COUPON_STATE_LABELS, COUPON_STATES } from "#rules/coupons";
import { OFFER_STATUS_LABELS, OFFER_STATUSES } from "#rules/offer-status";
import { PAYMENT_FLOW_LABELS, PAYMENT_FLOWS } from "#rules/payments";
import { DISCOUNT_TYPE_LABELS, DISCOUNT_TYPES } from "#rules/prices";
import { REGIONS } from "#rules/regions";
import { OfferPatchSchema, OfferSchema, RevisionDecisionSchema } from "#contract/partner";
import { blank, pageFields, PageQuerySchema } from "#contract/page";
import type { Database } from "#api/db/client";
import { handle, idParam, pageAnswer, parseInput } from "#api/http";
import type { PartnerAction } from "#rules/partner-roles";
import { partnerScope, requireStaffActor, type Identify } from "#api/services/access";
import { decideRevision, listRevisions, withdrawRevision } from "#api/services/offer-revisions";
import {
  createPartnerOffer,
  deletePartnerOffer,
  getPartnerOffer,
  listPartnerOffers,
  updatePartnerOffer,
} from "#api/services/partner-offers";

const OffersQuery = z.object({
  status: z.preprocess(blank, z.enum(OFFER_STATUSES, { errorMap: () => ({ message: "Estado de oferta desconocido." }) }).optional()),
  category: z.preprocess(blank, z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Categoría desconocida." }) }).optional()),
  region: z.preprocess(blank, z.string().max(60).optional()),
  search: z.preprocess(blank, z.string().max(200).optional()),
  organization: z.preprocess(blank, z.string().uuid("Empresa no válida.").optional()),
  ...pageFields,
});

/** The portal's offers: the dictionaries their forms choose from, the offers, and changes waiting for staff. */
export function partnerOffersRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action: PartnerAction) => partnerScope(db, req, identify, action);

  // ---- Dictionaries: the lists in rules/, with their Spanish labels. Public, cacheable.
  router.get("/offers/dictionaries/", (_req, res) => {
    const entries = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
      values.map((value) => ({ value, label: labels[value] }));
    res.set("Cache-Control", "public, max-age=3600");
    res.json({
      categories: entries(CATEGORY_IDS, CATEGORY_LABELS),
      provinces: REGIONS.map((r) => ({ value: r.value, label: r.label })),
      offer_types: entries(OFFER_TYPES, OFFER_TYPE_LABELS),
      discount_types: entries(DISCOUNT_TYPES, DISCOUNT_TYPE_LABELS),
      payment_flows: entries(PAYMENT_FLOWS, PAYMENT_FLOW_LABELS),
      offer_statuses: entries(OFFER_STATUSES, OFFER_STATUS_LABELS),
      coupon_states: entries(COUPON_STATES, COUPON_STATE_LABELS),
    });
  });

  // ---- Changes to offers on sale, waiting for staff (before /offers/:id/, which would take «revisions» for an id)
  router.get(
    "/offers/revisions/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.read");
      const q = parseInput(PageQuerySchema, req.query);
      const { count, results } = await listRevisions(db, s, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.patch(
    "/offers/revisions/:id/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const s = await scope(req, "offers.write");
      const id = idParam(req);
      res.json(await decideRevision(db, s, id, parseInput(RevisionDecisionSchema, req.body)));
    }),
  );
  router.delete(
    "/offers/revisions/:id/",
    handle(async (req, res) => {
      await withdrawRevision(db, await scope(req, "offers.write"), idParam(req));
      res.status(204).end();
    }),
  );

  // ---- Offers
  router.get(
    "/offers/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.read");
      const q = parseInput(OffersQuery, req.query);
      const { count, results } = await listPartnerOffers(db, s, q, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.post(
    "/offers/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.write");
      const input = parseInput(OfferSchema, req.body);
      res.status(201).json(await createPartnerOffer(db, s, { ...input, organization: input.organization.toLowerCase() }));
    }),
  );
  router.get(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.read");
      res.set("Cache-Control", "private, no-store");
      res.json(await getPartnerOffer(db, s, idParam(req)));
    }),
  );
  router.put(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.write");
      const id = idParam(req);
      await getPartnerOffer(db, s, id); // 404 before 400: a stranger's offer is not worth validating for
      const input = parseInput(OfferSchema, req.body);
      res.json(await updatePartnerOffer(db, s, id, { ...input, organization: input.organization.toLowerCase() }));
    }),
  );
  router.patch(
    "/offers/:id/",
    handle(async (req, res) => {
      const s = await scope(req, "offers.write");
      const id = idParam(req);
      await getPartnerOffer(db, s, id);
      res.json(await updatePartnerOffer(db, s, id, parseInput(OfferPatchSchema, req.body)));
    }),
  );
  router.delete(
    "/offers/:id/",
    handle(async (req, res) => {
      await deletePartnerOffer(db, await scope(req, "offers.write"), idParam(req));
      res.status(204).end();
    }),
  );

  return router;
}
