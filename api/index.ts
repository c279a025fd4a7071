import express, { Router, type Request, type Response } from "express";
import { logRequestError } from "#platform/logger.server";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { errorHandler, HttpError, parseJsonBody, rejectUnstorableText } from "#api/http";
import { publicOffersRouter } from "#api/routes/public-offers";
import { salesRouter } from "#api/routes/sales";
import { customerMailRouter } from "#api/routes/customer-mail";
import { feedbackRouter } from "#api/routes/feedback";
import { createPaymentProviders } from "#api/payments/registry";
import { authenticate, getUser } from "#api/auth/context";
import { jwtRouter } from "#api/routes/auth";
import { socialAuthRouter } from "#api/routes/social-auth";
import { customerRouter } from "#api/routes/customer";
import { customerDataRouter } from "#api/routes/customer-data";
import { usersRouter } from "#api/routes/users";
import { verificationRouter } from "#api/routes/verification";
import { sessionsRouter } from "#api/routes/sessions";
import { partnerOffersRouter } from "#api/routes/partner-offers";
import { partnerOrganizationsRouter } from "#api/routes/partner-organizations";
import { partnerPromoCodesRouter } from "#api/routes/partner-promo-codes";
import { partnerMembersRouter } from "#api/routes/partner-members";
import { imageUploadRouter, partnerImagesRouter } from "#api/routes/partner-images";
import { staffUsersRouter } from "#api/routes/staff-users";
import { partnerSalesRouter } from "#api/routes/partner-sales";
import { refundsRouter } from "#api/routes/refunds";
import { statementsRouter } from "#api/routes/statements";
import type { Identify } from "#api/services/access";
import { exemptFromAddressLimits, limiterStoreFor, limits } from "#api/rate-limit";
import { allowedHosts, hostGuard } from "#api/hosts";

export type ApiOptions = {
  db: Database;
  config: Config;
  log?: (error: unknown, req: Request, res: Response) => void;
  /** Who is calling: the JWT's user (api/auth/context). */
  identify?: Identify;
};

/** /api/v0: the system of record. The storefront reaches it only over HTTP. */
export function createApi({ db, config, log = logRequestError, identify = getUser }: ApiOptions): Router {
  const api = Router();
  const payments = createPaymentProviders(config, db);
  limits.useStore(limiterStoreFor(db));
  exemptFromAddressLimits(config.rateLimitExempt);
  // Also applied by server.ts to the whole site; here too so the API is safe wherever it is mounted.
  api.use(hostGuard(allowedHosts(config)));
  api.use((_req, res, next) => {
    res.set("Content-Language", "es");
    next();
  });
  // Bad input is handled here, once, for every route below: malformed or oversized JSON and
  // text the database cannot store are a Spanish 400 before any route runs.
  api.use(parseJsonBody, rejectUnstorableText);
  // Who is calling, read once; routes ask getUser/requireUser (api/auth/context.ts).
  api.use(authenticate(config, db));
  // The caller's id for the request's log line (server/request-log.ts).
  api.use((req, res, next) => {
    const user = getUser(req);
    if (user) res.locals.userId = user.id;
    next();
  });
  // Uploads read their own (larger) bodies, once the caller is known: before any router that parses JSON.
  api.use(imageUploadRouter({ db, identify }));
  // Webhooks need the exact bytes that were signed, so they parse their own bodies.
  api.use(salesRouter({ db, config, payments }));
  api.use(customerMailRouter({ db, config }));
  api.use(jwtRouter({ db, config }));
  api.use(socialAuthRouter({ db, config }));
  api.use(express.json({ limit: "100kb" }));
  api.use(customerRouter({ db, config }));
  api.use(feedbackRouter({ db, config }));
  api.use(customerDataRouter({ db, config }));
  api.use(verificationRouter({ db, config }));
  api.use(usersRouter({ db, config }));
  api.use(sessionsRouter({ db }));
  api.use(publicOffersRouter(db));
  api.use(partnerMembersRouter({ db, config, identify }));
  // The pictures' /offers/images/ and the offers' /offers/dictionaries/ and /offers/revisions/ come before /offers/:id/.
  api.use(
    partnerImagesRouter({ db, identify }),
    partnerOffersRouter({ db, identify }),
    partnerOrganizationsRouter({ db, identify }),
    partnerPromoCodesRouter({ db, identify }),
  );
  api.use(partnerSalesRouter({ db, config, identify }));
  api.use(refundsRouter({ db, config, payments, identify }));
  api.use(statementsRouter({ db, config, identify }));
  api.use(staffUsersRouter({ db, identify }));
  api.use((_req, _res, next) => next(new HttpError(404, "No encontrado.")));
  api.use(errorHandler(log));
  return api;
}
