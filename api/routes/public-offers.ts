import { Router, type RequestHandler } from "express";
import { LISTING_MESSAGES } from "#rules/listing-order";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { badRequest, HttpError, notFound, pageLinks, sendJsonText } from "#api/http";
import { on } from "#api/route";
import { getOffer, nearbyOffers, selectedOffers } from "#api/services/offers/cards";
import { listOffers, popularOffers } from "#api/services/offers/listings";
import type { OfferList, OfferSummary, Page } from "#contract/offers";
import { publicOffersRoutes } from "#contract/public-offers";

const NOT_AN_OFFER_ID = "El identificador de la oferta no es un UUID válido.";

/** An offer's id that is not a UUID is a 400, told before anything else of the request is read. */
const offerIdFirst: RequestHandler = (req, _res, next) => next(isUuid(req.params.id) ? undefined : badRequest(NOT_AN_OFFER_ID));

/** The routes of contract/public-offers.ts. */
export function publicOffersRouter(db: Database): Router {
  const router = Router();

  for (const route of [publicOffersRoutes.list, publicOffersRoutes.mainpage]) {
    on(router, route, async (req, res, { query: q }) => {
      if (q.price_min !== undefined && q.price_max !== undefined && q.price_min > q.price_max) throw badRequest(LISTING_MESSAGES.reversed);
      if (q.sort === "nearby" && (q.lat === undefined || q.lng === undefined)) throw badRequest(LISTING_MESSAGES.noPlace);
      const near = q.lat !== undefined && q.lng !== undefined ? { latitude: q.lat, longitude: q.lng } : undefined;
      const ordering = { sort: q.sort, priceMin: q.price_min, priceMax: q.price_max, near };
      const { count, resultsJson } = await listOffers(db, q, { page: q.page, pageSize: q.page_size }, ordering);
      res.set("Cache-Control", "public, max-age=30");
      const head = { count, ...pageLinks(req, q.page, q.page_size, count) } satisfies Omit<Page<OfferSummary>, "results">;
      // The cards go out as the database wrote them (valid JSON): parsing and serialising 24 cards
      // again was a tenth of a page's CPU.
      sendJsonText(req, res, [`${JSON.stringify(head).slice(0, -1)},"results":`, resultsJson, "}"]);
    });
  }

  on(router, publicOffersRoutes.popular, async (_req, res, { query }) => {
    res.set("Cache-Control", "public, max-age=60");
    res.json({ results: await popularOffers(db, query, query.page_size) } satisfies OfferList);
  });

  on(router, publicOffersRoutes.selected, async (_req, res, { query }) => {
    const raw: unknown = query.uuids;
    const ids = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v: unknown) =>
      typeof v === "string" ? v.split(",").filter(Boolean) : [],
    );
    if (ids.length > 100) throw badRequest("Como máximo 100 ofertas por petición.");
    const bad = ids.find((id) => !isUuid(id));
    if (bad !== undefined) throw badRequest(`Identificador de oferta no válido: ${String(bad).slice(0, 40)}`);
    res.set("Cache-Control", "no-store");
    res.json(
      await selectedOffers(
        db,
        ids.map((id) => id.toLowerCase()),
      ),
    );
  });

  on(router, publicOffersRoutes.nearby, { before: [offerIdFirst] }, async (_req, res, { params, query }) => {
    const offers = await nearbyOffers(db, params.id.toLowerCase(), query.page_size);
    if (offers === null) throw notFound("Oferta no encontrada.");
    res.set("Cache-Control", "public, max-age=60");
    res.json({ results: offers });
  });

  on(router, publicOffersRoutes.get, async (_req, res, { params }) => {
    if (!isUuid(params.id)) throw badRequest(NOT_AN_OFFER_ID);
    const offer = await getOffer(db, params.id.toLowerCase());
    if (!offer) throw new HttpError(404, "Oferta no encontrada.");
    // The spec loads one offer with no caching: stock and prices must be current.
    res.set("Cache-Control", "no-store");
    res.json(offer);
  });

  return router;
}
