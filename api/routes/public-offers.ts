import { Router } from "express";
import { z } from "zod";
import { CATEGORY_IDS } from "#rules/categories";
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, POPULAR_COUNT } from "#rules/constants";
import { PROVINCES } from "#rules/regions";
import { PRICE_RANGE_MAX_EUROS, LISTING_MESSAGES, SORTS } from "#rules/listing-order";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { badRequest, handle, HttpError, notFound, pageLinks, parseInput, sendJsonText } from "#api/http";
import { getOffer, nearbyOffers, selectedOffers } from "#api/services/offers/cards";
import { listOffers, popularOffers } from "#api/services/offers/listings";
import type { OfferList, OfferSummary, Page } from "#contract/offers";
import { blank, lastOf } from "#contract/page";

/** A bound of the price range: whole euros (rules/listing-order.ts). */
const euros = z.preprocess(
  blank,
  z.coerce
    .number({ invalid_type_error: LISTING_MESSAGES.notWhole })
    .int(LISTING_MESSAGES.notWhole)
    .min(0, LISTING_MESSAGES.outOfRange)
    .max(PRICE_RANGE_MAX_EUROS, LISTING_MESSAGES.outOfRange)
    .optional(),
);

const ListQuery = z.object({
  search: z.preprocess(
    lastOf,
    z.string({ invalid_type_error: "La búsqueda debe ser un texto." }).max(200, "La búsqueda es demasiado larga.").optional(),
  ),
  category: z.preprocess(blank, z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Categoría desconocida." }) }).optional()),
  region: z.preprocess(
    (v) => {
      const value = blank(v);
      return value === "España" ? undefined : value;
    },
    z.enum(PROVINCES, { errorMap: () => ({ message: "Región desconocida." }) }).optional(),
  ),
  sort: z.preprocess(blank, z.enum(SORTS, { errorMap: () => ({ message: "Orden desconocido." }) }).default("recommended")),
  price_min: euros,
  price_max: euros,
  lat: z.preprocess(blank, z.coerce.number({ invalid_type_error: "La latitud debe ser un número." }).min(-90).max(90).optional()),
  lng: z.preprocess(blank, z.coerce.number({ invalid_type_error: "La longitud debe ser un número." }).min(-180).max(180).optional()),
  page: z.preprocess(
    blank,
    z.coerce
      .number({ invalid_type_error: "La página debe ser un número entero." })
      .int("La página debe ser un número entero.")
      .min(1, "La página debe ser 1 o mayor.")
      .max(PAGE_MAX, "Página fuera de rango.")
      .default(1),
  ),
  page_size: z.preprocess(
    blank,
    z.coerce
      .number({ invalid_type_error: "page_size debe ser un número entero." })
      .int("page_size debe ser un número entero.")
      .min(1, `page_size debe estar entre 1 y ${PAGE_SIZE_MAX}.`)
      .max(PAGE_SIZE_MAX, `page_size debe estar entre 1 y ${PAGE_SIZE_MAX}.`)
      .default(PAGE_SIZE_DEFAULT),
  ),
});

export function publicOffersRouter(db: Database): Router {
  const router = Router();

  const list = handle(async (req, res) => {
    const q = parseInput(ListQuery, req.query);
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

  router.get("/", list);
  // The home page's list: same filters, ordered by recommendation rank.
  router.get("/mainpage/", list);

  // «Populares ahora»: the most bought in the last POPULAR_DAYS days, with the listing's filters.
  router.get(
    "/popular/",
    handle(async (req, res) => {
      const q = parseInput(
        ListQuery.pick({ region: true, category: true }).extend({ page_size: ListQuery.shape.page_size.default(POPULAR_COUNT) }),
        req.query,
      );
      res.set("Cache-Control", "public, max-age=60");
      res.json({ results: await popularOffers(db, q, q.page_size) } satisfies OfferList);
    }),
  );

  router.get(
    "/selected/",
    handle(async (req, res) => {
      const raw = req.query.uuids;
      const ids = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) =>
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
    }),
  );

  router.get(
    "/:id/nearby/",
    handle(async (req, res) => {
      if (!isUuid(req.params.id)) throw badRequest("El identificador de la oferta no es un UUID válido.");
      const limit = parseInput(z.object({ page_size: ListQuery.shape.page_size.default(6) }), req.query).page_size;
      const offers = await nearbyOffers(db, req.params.id.toLowerCase(), limit);
      if (offers === null) throw notFound("Oferta no encontrada.");
      res.set("Cache-Control", "public, max-age=60");
      res.json({ results: offers });
    }),
  );

  router.get(
    "/:id/",
    handle(async (req, res) => {
      if (!isUuid(req.params.id)) throw badRequest("El identificador de la oferta no es un UUID válido.");
      const offer = await getOffer(db, req.params.id.toLowerCase());
      if (!offer) throw new HttpError(404, "Oferta no encontrada.");
      // The spec loads one offer with no caching: stock and prices must be current.
      res.set("Cache-Control", "no-store");
      res.json(offer);
    }),
  );

  return router;
}
