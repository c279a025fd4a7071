import { Router, type Request } from "express";
import { partnerPromoCodesRoutes } from "#contract/partner-promo-codes";
import { PROMO_CODE_CHECKS, TOO_MANY_PROMO_CHECKS } from "#rules/limits";
import type { Database } from "#api/db/client";
import { handle, idParam } from "#api/http";
import { on } from "#api/route";
import type { PartnerAction } from "#rules/partner-roles";
import { actorOf, partnerScope, scopeFirst, scopeOf, type Identify, type Scope } from "#api/services/access";
import { clientAddress, isExemptAddress, limits } from "#api/rate-limit";
import { createPromoCode, deletePromoCode, getPromoCode, listPromoCodes, updatePromoCode } from "#api/services/promo-codes";

/** A partner's promo codes for its offers. */
export function partnerPromoCodesRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action: PartnerAction) => partnerScope(db, req, identify, action);
  // Who may, asked before the route reads its input (api/services/access.ts).
  const may = (action?: PartnerAction, then?: (req: Request, s: Scope) => Promise<unknown>) => scopeFirst(db, identify, action, then);

  // ---- Promo codes
  // Each code created or renamed is a guess at the codes that exist, limited like apply-promocode.
  const promoWrites = handle(async (req, _res, next) => {
    const actor = await actorOf(req, identify);
    await limits.consume(`promo-write:user:${actor.id}`, { ...PROMO_CODE_CHECKS, message: TOO_MANY_PROMO_CHECKS });
    const address = clientAddress(req);
    if (!isExemptAddress(address))
      await limits.consume(`promo-write:ip:${address}`, { ...PROMO_CODE_CHECKS, message: TOO_MANY_PROMO_CHECKS });
    next();
  });
  on(router, partnerPromoCodesRoutes.list, { before: [may("promo-codes.read")] }, async (_req, res, { query }) => {
    res.set("Cache-Control", "private, no-store");
    res.json({ results: await listPromoCodes(db, scopeOf(res), query) });
  });
  on(router, partnerPromoCodesRoutes.create, { before: [promoWrites, may("promo-codes.write")] }, async (_req, res, { body }) => {
    res.status(201).json(await createPromoCode(db, scopeOf(res), body));
  });
  on(router, partnerPromoCodesRoutes.get, async (req, res) => {
    res.set("Cache-Control", "private, no-store");
    res.json(await getPromoCode(db, await scope(req, "promo-codes.read"), idParam(req)));
  });
  const codeFirst = may("promo-codes.write", (req, s) => getPromoCode(db, s, idParam(req)));
  on(router, partnerPromoCodesRoutes.replace, { before: [promoWrites, codeFirst] }, async (req, res, { body }) => {
    res.json(await updatePromoCode(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerPromoCodesRoutes.update, { before: [promoWrites, codeFirst] }, async (req, res, { body }) => {
    res.json(await updatePromoCode(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerPromoCodesRoutes.delete, async (req, res) => {
    await deletePromoCode(db, await scope(req, "promo-codes.write"), idParam(req));
    res.status(204).end();
  });

  return router;
}
