import { Router, type Request } from "express";
import { z } from "zod";
import { PromoCodePatchSchema, PromoCodeSchema } from "#contract/partner";
import { blank } from "#contract/page";
import { PROMO_CODE_CHECKS, TOO_MANY_PROMO_CHECKS } from "#rules/limits";
import type { Database } from "#api/db/client";
import { handle, idParam, parseInput } from "#api/http";
import type { PartnerAction } from "#rules/partner-roles";
import { actorOf, partnerScope, type Identify } from "#api/services/access";
import { clientAddress, isExemptAddress, limits } from "#api/rate-limit";
import { createPromoCode, deletePromoCode, getPromoCode, listPromoCodes, updatePromoCode } from "#api/services/promo-codes";

/** A partner's promo codes for its offers. */
export function partnerPromoCodesRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action: PartnerAction) => partnerScope(db, req, identify, action);

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
  router.get(
    "/promocodes/",
    handle(async (req, res) => {
      const s = await scope(req, "promo-codes.read");
      const q = parseInput(
        z.object({ offer: z.preprocess(blank, z.string().uuid().optional()), search: z.preprocess(blank, z.string().max(40).optional()) }),
        req.query,
      );
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await listPromoCodes(db, s, q) });
    }),
  );
  router.post(
    "/promocodes/",
    promoWrites,
    handle(async (req, res) => {
      const s = await scope(req, "promo-codes.write");
      res.status(201).json(await createPromoCode(db, s, parseInput(PromoCodeSchema, req.body)));
    }),
  );
  router.get(
    "/promocodes/:id/",
    handle(async (req, res) => {
      res.set("Cache-Control", "private, no-store");
      res.json(await getPromoCode(db, await scope(req, "promo-codes.read"), idParam(req)));
    }),
  );
  const promoWrite = (partial: boolean) =>
    handle(async (req, res) => {
      const s = await scope(req, "promo-codes.write");
      const id = idParam(req);
      await getPromoCode(db, s, id);
      const input = partial ? parseInput(PromoCodePatchSchema, req.body) : parseInput(PromoCodeSchema, req.body);
      res.json(await updatePromoCode(db, s, id, input));
    });
  router.put("/promocodes/:id/", promoWrites, promoWrite(false));
  router.patch("/promocodes/:id/", promoWrites, promoWrite(true));
  router.delete(
    "/promocodes/:id/",
    handle(async (req, res) => {
      await deletePromoCode(db, await scope(req, "promo-codes.write"), idParam(req));
      res.status(204).end();
    }),
  );

  return router;
}
