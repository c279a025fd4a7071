import { Router, type Request } from "express";
import { z } from "zod";
import { isUuid } from "#rules/uuid";
import type { Config } from "#platform/config.server";
import { CartSchema, FavoriteUuids } from "#contract/customer";
import type { Database } from "#api/db/client";
import { anonymousSessions } from "#api/db/schema";
import { badRequest, handle, HttpError, notFound, pageAnswer, parseInput } from "#api/http";
import { rateLimit } from "#api/rate-limit";
import { getAnonymousId, getUser, requireUser } from "#api/auth/context";
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

const PageQuery = z.object({
  page: z.coerce.number({ invalid_type_error: "page debe ser un número." }).int().min(1).max(10_000).default(1),
  page_size: z.coerce.number({ invalid_type_error: "page_size debe ser un número." }).int().min(1).max(50).default(10),
});

/** Favourites, server cart, purchases, coupons and reservations of whoever is calling. */
export function customerDataRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const noStore = (_req: Request, res: import("express").Response, next: () => void) => {
    res.set("Cache-Control", "private, no-store");
    next();
  };
  router.use(["/customer", "/sales/download_coupon", "/sales/reserve_exists", "/session"], noStore);

  router.get(
    "/customer/favorites/",
    handle(async (req, res) => {
      res.json(await favoriteOffers(db, ownerOf(req)));
    }),
  );

  router.post(
    "/customer/favorites/:id/toggle/",
    handle(async (req, res) => {
      const owner = ownerOf(req);
      const id = String(req.params.id);
      if (!isUuid(id)) throw badRequest("Identificador de oferta no válido.");
      const offerId = id.toLowerCase();
      const known = await db.query.offers.findFirst({ where: (o, { eq }) => eq(o.id, offerId), columns: { id: true } });
      if (!known) throw notFound("Esa oferta no existe.");
      const isFavorite = await toggleFavorite(db, owner, offerId);
      res.json({ uuid: offerId, is_favorite: isFavorite, uuids: await favoriteIds(db, owner) });
    }),
  );

  router.post(
    "/customer/favorites/sync-list/",
    handle(async (req, res) => {
      const owner = ownerOf(req);
      const { uuids } = parseInput(z.object({ uuids: FavoriteUuids }), req.body);
      res.json({
        uuids: await addFavorites(
          db,
          owner,
          uuids.map((u) => u.toLowerCase()),
        ),
      });
    }),
  );

  router.get(
    "/customer/cart/",
    handle(async (req, res) => {
      res.json(await getCart(db, ownerOf(req)));
    }),
  );

  router.post(
    "/customer/cart/update/",
    handle(async (req, res) => {
      const owner = ownerOf(req);
      const cart = parseInput(CartSchema, req.body);
      res.json(await saveCart(db, owner, cart));
    }),
  );

  router.get(
    "/customer/purchases/",
    handle(async (req, res) => {
      const user = requireUser(req);
      const { page, page_size } = parseInput(PageQuery, req.query);
      const { count, results } = await customerPurchases(db, user.id, page, page_size);
      res.json(pageAnswer(req, page, page_size, count, results));
    }),
  );

  router.post(
    "/session/anonymous/",
    rateLimit({
      name: "session-anonymous",
      windowMs: 3600_000,
      max: 60,
      message: "Demasiadas sesiones nuevas desde esta dirección. Espera un rato.",
    }),
    handle(async (_req, res) => {
      const [row] = await db.insert(anonymousSessions).values({}).returning({ id: anonymousSessions.id });
      res.status(201).json({ token: await signAnonymous(config, row.id) });
    }),
  );

  router.post(
    "/sales/download_coupon/",
    handle(async (req, res) => {
      const user = requireUser(req);
      const { coupon } = parseInput(z.object({ coupon: z.string().uuid("Identificador de cupón no válido.") }), req.body);
      const owned = await ownedCoupon(db, user.id, coupon.toLowerCase());
      // Another customer's coupon answers exactly like one that does not exist.
      if (!owned) throw notFound("No hemos encontrado ese cupón.");
      const pdf = await voucherPdfFor(db, config, owned);
      res
        .status(200)
        .set({ "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="cupon-${owned.code}.pdf"` })
        .send(Buffer.from(pdf));
    }),
  );

  router.get(
    "/sales/reserve_exists/:id/",
    handle(async (req, res) => {
      const user = requireUser(req);
      const id = String(req.params.id);
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
    }),
  );
  return router;
}
