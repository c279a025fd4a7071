/**
 * /auth/jwt/: a password login, and the tokens it gives (simplejwt's paths and field names):
 * refreshing the pair, checking a token, logging out. The answers live in contract/accounts.ts.
 */
import { z } from "zod";
import "#rules/zod-es";
import { EmailField } from "#rules/accounts";
import { NoContent, defineRoute } from "#contract/define-route";
import { TokenPairSchema, TokenValidSchema } from "#contract/accounts";

/** A token of ours as a client sends it back (access, refresh or anonymous). */
const TokenText = z.string().min(1).max(2000);

/** POST /auth/jwt/create/: the address and password; an anonymous visitor's token takes its cart and favourites along. */
export const PasswordLoginSchema = z.object({
  email: EmailField,
  password: z.string().min(1).max(256),
  anonymous_token: z.string().max(2000).optional(),
});

export const authRoutes = {
  create: defineRoute({ method: "POST", path: "/auth/jwt/create/", body: PasswordLoginSchema, answer: TokenPairSchema }),
  refresh: defineRoute({ method: "POST", path: "/auth/jwt/refresh/", body: z.object({ refresh: TokenText }), answer: TokenPairSchema }),
  /** Without a refresh token, the session of the access token ends. */
  logout: defineRoute({ method: "POST", path: "/auth/jwt/logout/", body: z.object({ refresh: TokenText.optional() }), answer: NoContent }),
  verify: defineRoute({ method: "POST", path: "/auth/jwt/verify/", body: z.object({ token: TokenText }), answer: TokenValidSchema }),
};
