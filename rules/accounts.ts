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
