/**
 * POST /auth/jwt/google/, /apple/ and /facebook/: the provider's token in, our {access, refresh}
 * out, for the address the provider vouches for (rules/social.ts; the storefront's side of the
 * flow is app/routes/login+shared/social-login.server.ts).
 */
import { z } from "zod";
import "#rules/zod-es";
import { defineRoute } from "#contract/define-route";
import { TokenPairSchema } from "#contract/accounts";

const Token = z.string().min(10).max(8000);
const Name = z.string().max(150).optional();
/** Apple gives the name only on the first authorization, beside the token rather than in it. */
const Common = { anonymous_token: z.string().max(2000).optional(), first_name: Name, last_name: Name };

/** Google and Apple: their ID token, and the nonce the storefront put in the authorization request. */
export const IdTokenLoginSchema = z.object({ id_token: Token, nonce: z.string().min(1).max(200).optional(), ...Common });
/** Facebook: a user access token, checked against the Graph API. */
export const AccessTokenLoginSchema = z.object({ access_token: Token, ...Common });
export type SocialLoginBody = z.input<typeof IdTokenLoginSchema> | z.input<typeof AccessTokenLoginSchema>;

/** A provider that is not configured answers 404, as if its path did not exist. */
export const socialAuthRoutes = {
  google: defineRoute({ method: "POST", path: "/auth/jwt/google/", body: IdTokenLoginSchema, answer: TokenPairSchema }),
  apple: defineRoute({ method: "POST", path: "/auth/jwt/apple/", body: IdTokenLoginSchema, answer: TokenPairSchema }),
  facebook: defineRoute({ method: "POST", path: "/auth/jwt/facebook/", body: AccessTokenLoginSchema, answer: TokenPairSchema }),
};
