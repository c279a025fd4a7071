import { Router, type Request, type RequestHandler } from "express";
import { isUuid } from "#rules/uuid";
import type { Config } from "#platform/config.server";
import { customerDataRoutes } from "#contract/customer-data";
import type { Database } from "#api/db/client";
import { anonymousSessions } from "#api/db/schema";
import { badRequest, HttpError, notFound, pageAnswer } from "#api/http";
import { on } from "#api/route";
import { rateLimit } from "#api/rate-limit";
import { getAnonymousId, getUser, requireUser, signedIn } from "#api/auth/context";
import { signAnonymous } from "#api/auth/tokens";
import {
  addFavorites,
  customerPurchases,
  favoriteIds,
  favoriteOffers,
  getCart,
  openReservation,
  ownedCoupon,
  saveCart,
  toggleFavorite,
  type Owner,
} from "#api/services/customer-data";
import { voucherPdfFor } from "#api/services/coupon-pdf";

/** A logged-in customer, or else the anonymous session a cookie-less client holds. */
function ownerOf(req: Request): Owner {
  const user = getUser(req);
  if (user) return { kind: "user", id: user.id };
  const anonymous = getAnonymousId(req);
  if (anonymous) return { kind: "anonymous", id: anonymous };
  requireUser(req); // throws the right 401
  throw new HttpError(401, "Necesitas iniciar sesión.");
}

/** Who calls is checked before the input is read: a stranger is a 401 whatever they send. */
const ownerFirst: RequestHandler = (req, _res, next) => {
  ownerOf(req);
  next();
};

/** Favourites, server cart, purchases, coupons and reservations of whoever is calling (contract/customer-data.ts). */
export function customerDataRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const noStore = (_req: Request, res: import("express").Response, next: () => void) => {
    res.set("Cache-Control", "private, no-store");
    next();
  };
  router.use(["/customer", "/sales/download_coupon", "/sales/reserve_exists", "/session"], noStore);

  on(router, customerDataRoutes.favorites, async (req, res) => {
    res.json(await favoriteOffers(db, ownerOf(req)));
  });

  on(router, customerDataRoutes.toggleFavorite, async (req, res, { params }) => {
    const owner = ownerOf(req);
    const id = String(params.id);
    if (!isUuid(id)) throw badRequest("Identificador de oferta no válido.");
    const offerId = id.toLowerCase();
    const known = await db.query.offers.findFirst({ where: (o, { eq }) => eq(o.id, offerId), columns: { id: true } });
    if (!known) throw notFound("Esa oferta no existe.");
    const isFavorite = await toggleFavorite(db, owner, offerId);
    res.json({ uuid: offerId, is_favorite: isFavorite, uuids: await favoriteIds(db, owner) });
  });

  on(router, customerDataRoutes.syncFavorites, { before: [ownerFirst] }, async (req, res, { body: { uuids } }) => {
    const owner = ownerOf(req);
    res.json({
      uuids: await addFavorites(
        db,
        owner,
        uuids.map((u) => u.toLowerCase()),
      ),
    });
  });

  on(router, customerDataRoutes.cart, async (req, res) => {
    res.json(await getCart(db, ownerOf(req)));
  });

  on(router, customerDataRoutes.saveCart, { before: [ownerFirst] }, async (req, res, { body: cart }) => {
    res.json(await saveCart(db, ownerOf(req), cart));
  });

  on(router, customerDataRoutes.purchases, { before: [signedIn] }, async (req, res, { query: { page, page_size } }) => {
    const user = requireUser(req);
    const { count, results } = await customerPurchases(db, user.id, page, page_size);
    res.json(pageAnswer(req, page, page_size, count, results));
  });

  on(
    router,
    customerDataRoutes.anonymousSession,
    {
      before: [
        rateLimit({
          name: "session-anonymous",
          windowMs: 3600_000,
          max: 60,
          message: "Demasiadas sesiones nuevas desde esta dirección. Espera un rato.",
        }),
      ],
    },
    async (_req, res) => {
      const [row] = await db.insert(anonymousSessions).values({}).returning({ id: anonymousSessions.id });
      res.status(201).json({ token: await signAnonymous(config, row.id) });
    },
  );

  on(router, customerDataRoutes.downloadCoupon, { before: [signedIn] }, async (req, res, { body: { coupon } }) => {
    const user = requireUser(req);
    const owned = await ownedCoupon(db, user.id, coupon.toLowerCase());
    // Another customer's coupon answers exactly like one that does not exist.
    if (!owned) throw notFound("No hemos encontrado ese cupón.");
    const pdf = await voucherPdfFor(db, config, owned);
    res
      .status(200)
      .set({ "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="cupon-${owned.code}.pdf"` })
      .send(Buffer.from(pdf));
  });

  on(router, customerDataRoutes.reserveExists, async (req, res, { params }) => {
    const user = requireUser(req);
    const id = String(params.id);
    if (!isUuid(id)) throw badRequest("Identificador de oferta no válido.");
    const reservation = await openReservation(db, user.id, id.toLowerCase());
    res.json(
      reservation
        ? {
            exists: true,
            sale_id: reservation.sale_id,
            transaction_id: reservation.transaction_id,
            redirect_url: reservation.redirect_url,
            expires_at: new Date(reservation.expires_at).toISOString(),
          }
        : { exists: false },
    );
  });
  return router;
}
