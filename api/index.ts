import express, { Router } from "express";
import type { Config } from "#lib/config.server";
import type { Database } from "#api/db/client";
import { errorHandler, HttpError } from "#api/http";
import { publicOffersRouter } from "#api/routes/public-offers";
import { salesRouter } from "#api/routes/sales";
import { createPaymentProviders } from "#api/payments/registry";
import { authenticate } from "#api/auth/context";
import { jwtRouter } from "#api/routes/auth";
import { customerRouter } from "#api/routes/customer";
import { limiterStoreFor, limits } from "#api/rate-limit";

export type ApiOptions = {
  db: Database;
  config: Config;
  log?: (error: unknown) => void;
};

/** /api/v0: the system of record. The storefront reaches it only over HTTP. */
export function createApi({ db, config, log = (e) => console.error(e) }: ApiOptions): Router {
  const api = Router();
  const payments = createPaymentProviders(config, db);
  limits.useStore(limiterStoreFor(db));
  api.use((_req, res, next) => {
    res.set("Content-Language", "es");
    next();
  });
  // Who is calling, read once; routes ask getUser/requireUser (api/auth/context.ts).
  api.use(authenticate(config));
  // Webhooks need the exact bytes that were signed, so they parse their own bodies.
  api.use(salesRouter({ db, config, payments }));
  api.use(jwtRouter({ db, config }));
  api.use(express.json({ limit: "100kb" }));
  api.use(customerRouter({ db, config }));
  api.use("/public/offers", publicOffersRouter(db));
  api.use((_req, _res, next) => next(new HttpError(404, "No encontrado.")));
  api.use(errorHandler(log));
  return api;
}
