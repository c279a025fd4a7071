/**
 * The contract's account answers: logins, tokens, sessions, the account itself, and the short
 * acknowledgements of the account and verification calls (/auth/…, /verification/…, /customer/session/).
 */
import { z } from "zod";

/** GET /customer/session/ */
export const SessionInfoSchema = z.object({
  is_authenticated: z.boolean(),
  anonymous: z.boolean(),
  user: z.object({ id: z.string(), email: z.string(), role: z.string(), first_name: z.string(), last_name: z.string() }).nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const TokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof TokenPairSchema>;

/** /auth/users/me/ (djoser's user, plus the role). */
export const AccountUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  is_active: z.boolean(),
  email_verified: z.boolean(),
  has_password: z.boolean(),
  date_joined: z.string(),
});
export type AccountUser = z.infer<typeof AccountUserSchema>;
export const AccountUserListSchema = z.array(AccountUserSchema);

/** POST /auth/users/activation/: the pair, and whether the password chosen at registration stayed. */
export const ActivationAnswerSchema = TokenPairSchema.extend({ has_password: z.boolean() });
export type ActivationAnswer = z.infer<typeof ActivationAnswerSchema>;

/** POST /auth/users/: the new account, and the ticket that lets this client keep its password at activation. */
export const RegistrationAnswerSchema = AccountUserSchema.extend({ registration_token: z.string() });
export type RegistrationAnswer = z.infer<typeof RegistrationAnswerSchema>;

/** GET /auth/sessions/: one open session (a login on one device). */
export const DeviceSessionSchema = z.object({
  id: z.string(),
  /** "Chrome en Android", from the browser's User-Agent at login. */
  device: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  /** The session whose token made this request. */
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof DeviceSessionSchema>;
export const DeviceSessionListSchema = z.array(DeviceSessionSchema);

/** A call that answers only a Spanish sentence (a code sent, an address to confirm). */
export const DetailSchema = z.object({ detail: z.string() });

/**
 * POST /auth/users/reset_email_confirm/: the new pair once the new address is proven (200), or,
 * for a code that proved only the account, word that the new address got its own code (202).
 */
export const EmailConfirmAnswerSchema = z.union([TokenPairSchema, DetailSchema]);

/** POST /verification/send-code/ */
export const CodeSentSchema = DetailSchema.extend({ email: z.string() });

/** POST /verification/verify-code/: whether the code would log in, and why not. */
export const CodeCheckSchema = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(true) }),
  z.object({ valid: z.literal(false), detail: z.string() }),
]);

/** POST /auth/sessions/end_others/ */
export const EndedSessionsSchema = z.object({ ended: z.number().int() });

/** POST /session/anonymous/ */
export const AnonymousSessionSchema = z.object({ token: z.string() });

/** POST /auth/jwt/verify/: a valid token answers an empty object. */
export const TokenValidSchema = z.object({}).strict();
