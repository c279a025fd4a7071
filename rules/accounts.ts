import { z } from "zod";
import { isValidEmail } from "./email";

/** Rules of accounts, written once for the API and the storefront. */
export const LOGIN_CODE_LENGTH = 6;
export const LOGIN_CODE_MINUTES = 10;
export const LOGIN_CODE_MAX_TRIES = 5;
/** Codes sent per email and per client address, per hour. */
export const LOGIN_CODE_SENDS_PER_EMAIL_PER_HOUR = 5;
export const LOGIN_CODE_SENDS_PER_ADDRESS_PER_HOUR = 30;
/** Password-reset codes, activation codes and email-change codes per email, per hour, each. */
export const ACCOUNT_MAILS_PER_EMAIL_PER_HOUR = 5;
/**
 * Wrong passwords for one address within the window, after which that address logs in only by
 * code (its owner gets a mail) until a code login or a password reset.
 */
export const PASSWORD_FAILURES_BEFORE_LOCK = 10;
export const PASSWORD_FAILURE_WINDOW_MINUTES = 15;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/**
 * Favourites a visitor keeps without an account. They live in the session cookie beside the
 * recent searches, and the cookie must stay under 4 KB; an account has no limit.
 */
export const ANONYMOUS_FAVORITES_MAX = 30;

/** Purchases per page of /order/history. */
export const ORDER_HISTORY_PAGE_SIZE = 10;

/** Emails are compared and stored lower-case and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const EmailField = z
  .string({ required_error: "Escribe tu correo electrónico." })
  .trim()
  .min(1, "Escribe tu correo electrónico.")
  .max(254, "El correo electrónico es demasiado largo.")
  .refine(isValidEmail, "Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")
  .transform(normalizeEmail);

export const CodeField = z
  .string({ required_error: "Escribe el código de 6 cifras." })
  .trim()
  .regex(/^\d{6}$/, "El código tiene 6 cifras.");

export const PasswordField = z
  .string({ required_error: "Escribe tu contraseña." })
  .min(PASSWORD_MIN_LENGTH, `La contraseña necesita al menos ${PASSWORD_MIN_LENGTH} caracteres.`)
  .max(PASSWORD_MAX_LENGTH, `La contraseña puede tener como máximo ${PASSWORD_MAX_LENGTH} caracteres.`);

/** What /customer/session/ answers. */
export type SessionInfo = {
  is_authenticated: boolean;
  anonymous: boolean;
  user: { id: string; email: string; role: string; first_name: string; last_name: string } | null;
};

export type TokenPair = { access: string; refresh: string };

/** POST /auth/users/activation/: the pair, and whether the password chosen at registration stayed. */
export type ActivationAnswer = TokenPair & { has_password: boolean };

/** POST /auth/users/: the new account, and the ticket that lets this client keep its password at activation. */
export type RegistrationAnswer = AccountUser & { registration_token: string };

/** GET /auth/sessions/: one open session (a login on one device). */
export type DeviceSession = {
  id: string;
  /** "Chrome en Android", from the browser's User-Agent at login. */
  device: string;
  created_at: string;
  last_used_at: string;
  /** The session whose token made this request. */
  current: boolean;
};

/** /auth/users/me/ (djoser's user, plus the role). */
export type AccountUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  is_active: boolean;
  email_verified: boolean;
  has_password: boolean;
  date_joined: string;
};
