import { Router, type Request, type RequestHandler } from "express";
import type { Config } from "#platform/config.server";
import { isSocialProviderEnabled, type SocialProvider } from "#rules/social";
import { socialAuthRoutes } from "#contract/social-auth";
import type { Database } from "#api/db/client";
import { HttpError } from "#api/http";
import { on } from "#api/route";
import { rateLimit } from "#api/rate-limit";
import { verifyFacebookToken, verifyIdToken, type SocialIdentity } from "#api/auth/social";
import { logInProvenEmail } from "#api/services/login";
import { deviceOf } from "#api/auth/sessions";

/**
 * POST /auth/jwt/google/, /apple/ and /facebook/ (contract/social-auth.ts): the provider's token
 * in, our {access, refresh} out, for the address the provider vouches for. A provider that is not
 * configured is a 404, as if the path did not exist.
 */
export function socialAuthRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const limit = rateLimit({
    name: "jwt-social",
    windowMs: 15 * 60_000,
    max: 100,
    message: "Demasiados intentos de inicio de sesión. Espera unos minutos.",
  });
  const enabled = (provider: SocialProvider): { before: RequestHandler[] } => ({
    before: [
      (_req, _res, next) => next(isSocialProviderEnabled(config, provider) ? undefined : new HttpError(404, "No encontrado.")),
      limit,
    ],
  });

  const logIn = async (
    req: Request,
    identity: SocialIdentity,
    body: { anonymous_token?: string; first_name?: string; last_name?: string },
  ) =>
    // Apple gives the name only on the first authorization, beside the token rather than in it.
    logInProvenEmail(db, config, {
      email: identity.email,
      device: deviceOf(req),
      firstName: identity.firstName ?? body.first_name?.trim(),
      lastName: identity.lastName ?? body.last_name?.trim(),
      anonymousToken: body.anonymous_token,
    });

  on(router, socialAuthRoutes.google, enabled("google"), async (req, res, { body }) => {
    res.json(await logIn(req, await verifyIdToken(config, "google", body.id_token, body.nonce), body));
  });
  on(router, socialAuthRoutes.apple, enabled("apple"), async (req, res, { body }) => {
    res.json(await logIn(req, await verifyIdToken(config, "apple", body.id_token, body.nonce), body));
  });
  on(router, socialAuthRoutes.facebook, enabled("facebook"), async (req, res, { body }) => {
    res.json(await logIn(req, await verifyFacebookToken(config, body.access_token), body));
  });
  return router;
}
