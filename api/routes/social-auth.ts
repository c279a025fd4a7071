import { Router } from "express";
import { z } from "zod";
import type { Config } from "#platform/config.server";
import { isSocialProviderEnabled, type SocialProvider } from "#rules/social";
import type { Database } from "#api/db/client";
import { handle, HttpError, parseInput } from "#api/http";
import { rateLimit } from "#api/rate-limit";
import { verifyFacebookToken, verifyIdToken, type SocialIdentity } from "#api/auth/social";
import { logInProvenEmail } from "#api/services/login";
import { deviceOf } from "#api/auth/sessions";

const Token = z.string().min(10).max(8000);
const Name = z.string().max(150).optional();
const Common = { anonymous_token: z.string().max(2000).optional(), first_name: Name, last_name: Name };
const IdTokenBody = z.object({ id_token: Token, nonce: z.string().min(1).max(200).optional(), ...Common });
const AccessTokenBody = z.object({ access_token: Token, ...Common });

/**
 * POST /auth/jwt/google/, /apple/ and /facebook/: the provider's token in, our {access, refresh}
 * out, for the address the provider vouches for. A provider that is not configured is a 404, as
 * if the path did not exist.
 */
export function socialAuthRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const limit = rateLimit({
    name: "jwt-social",
    windowMs: 15 * 60_000,
    max: 100,
    message: "Demasiados intentos de inicio de sesión. Espera unos minutos.",
  });

  const route = (
    provider: SocialProvider,
    identify: (body: unknown) => Promise<{ identity: SocialIdentity; body: z.infer<z.ZodObject<typeof Common>> }>,
  ) =>
    router.post(
      `/auth/jwt/${provider}/`,
      (req, _res, next) => next(isSocialProviderEnabled(config, provider) ? undefined : new HttpError(404, "No encontrado.")),
      limit,
      handle(async (req, res) => {
        const { identity, body } = await identify(req.body);
        // Apple gives the name only on the first authorization, beside the token rather than in it.
        const pair = await logInProvenEmail(db, config, {
          email: identity.email,
          device: deviceOf(req),
          firstName: identity.firstName ?? body.first_name?.trim(),
          lastName: identity.lastName ?? body.last_name?.trim(),
          anonymousToken: body.anonymous_token,
        });
        res.json(pair);
      }),
    );

  route("google", async (input) => {
    const body = parseInput(IdTokenBody, input);
    return { identity: await verifyIdToken(config, "google", body.id_token, body.nonce), body };
  });
  route("apple", async (input) => {
    const body = parseInput(IdTokenBody, input);
    return { identity: await verifyIdToken(config, "apple", body.id_token, body.nonce), body };
  });
  route("facebook", async (input) => {
    const body = parseInput(AccessTokenBody, input);
    return { identity: await verifyFacebookToken(config, body.access_token), body };
  });
  return router;
}
