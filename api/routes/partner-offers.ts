import { Router, type Request, type RequestHandler } from "express";
import { CATEGORY_IDS, CATEGORY_LABELS, OFFER_TYPE_LABELS, OFFER_TYPES } from "#rules/categories";
import { COUPON_STATE_LABELS, COUPON_STATES } from "#rules/coupons";
import { OFFER_STATUS_LABELS, OFFER_STATUSES } from "#rules/offer-status";
import { PAYMENT_FLOW_LABELS, PAYMENT_FLOWS } from "#rules/payments";
import { DISCOUNT_TYPE_LABELS, DISCOUNT_TYPES } from "#rules/prices";
import { REGIONS } from "#rules/regions";
import { partnerOffersRoutes } from "#contract/partner-offers";
import type { Database } from "#api/db/client";
import { handle, idParam, pageAnswer } from "#api/http";
import { on } from "#api/route";
import type { PartnerAction } from "#rules/partner-roles";
import { partnerScope, scopeFirst, scopeOf, requireStaffActor, type Identify, type Scope } from "#api/services/access";
import { decideRevision, listRevisions, withdrawRevision } from "#api/services/offer-revisions";
import {
  createPartnerOffer,
  deletePartnerOffer,
  getPartnerOffer,
  listPartnerOffers,
  updatePartnerOffer,
} from "#api/services/partner-offers";

/** The portal's offers: the dictionaries their forms choose from, the offers, and changes waiting for staff. */
export function partnerOffersRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action: PartnerAction) => partnerScope(db, req, identify, action);
  // Who may, asked before the route reads its input (api/services/access.ts).
  const may = (action?: PartnerAction, then?: (req: Request, s: Scope) => Promise<unknown>) => scopeFirst(db, identify, action, then);

  // ---- Dictionaries: the lists in rules/, with their Spanish labels. Public, cacheable.
  on(router, partnerOffersRoutes.dictionaries, async (_req, res) => {
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
  on(router, partnerOffersRoutes.revisions, { before: [may("offers.read")] }, async (req, res, { query: q }) => {
    const { count, results } = await listRevisions(db, scopeOf(res), { page: q.page, pageSize: q.page_size });
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });
  const staffFirst: RequestHandler = handle(async (req, _res, next) => {
    await requireStaffActor(req, identify);
    next();
  });
  on(
    router,
    partnerOffersRoutes.decideRevision,
    { before: [staffFirst, may("offers.write", async (req) => idParam(req))] },
    async (req, res, { body }) => {
      res.json(await decideRevision(db, scopeOf(res), idParam(req), body));
    },
  );
  on(router, partnerOffersRoutes.withdrawRevision, async (req, res) => {
    await withdrawRevision(db, await scope(req, "offers.write"), idParam(req));
    res.status(204).end();
  });

  // ---- Offers
  on(router, partnerOffersRoutes.list, { before: [may("offers.read")] }, async (req, res, { query: q }) => {
    const { count, results } = await listPartnerOffers(db, scopeOf(res), q, { page: q.page, pageSize: q.page_size });
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });
  on(router, partnerOffersRoutes.create, { before: [may("offers.write")] }, async (_req, res, { body: input }) => {
    res.status(201).json(await createPartnerOffer(db, scopeOf(res), { ...input, organization: input.organization.toLowerCase() }));
  });
  on(router, partnerOffersRoutes.get, async (req, res) => {
    const s = await scope(req, "offers.read");
    res.set("Cache-Control", "private, no-store");
    res.json(await getPartnerOffer(db, s, idParam(req)));
  });
  // 404 before 400: a stranger's offer is not worth validating for.
  const offerFirst = may("offers.write", (req, s) => getPartnerOffer(db, s, idParam(req)));
  on(router, partnerOffersRoutes.replace, { before: [offerFirst] }, async (req, res, { body: input }) => {
    res.json(await updatePartnerOffer(db, scopeOf(res), idParam(req), { ...input, organization: input.organization.toLowerCase() }));
  });
  on(router, partnerOffersRoutes.update, { before: [offerFirst] }, async (req, res, { body }) => {
    res.json(await updatePartnerOffer(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerOffersRoutes.delete, async (req, res) => {
    await deletePartnerOffer(db, await scope(req, "offers.write"), idParam(req));
    res.status(204).end();
  });

  return router;
}
