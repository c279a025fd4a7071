/**
 * djoser's /auth/users/: registration, activation, passwords and addresses by a 6-digit mailed
 * code, and the account itself. The answers live in contract/accounts.ts.
 */
import { z } from "zod";
import "#rules/zod-es";
import { CodeField, EmailField, PasswordField } from "#rules/accounts";
import { ROLES } from "#rules/roles";
import { NoContent, defineRoute } from "#contract/define-route";
import {
  AccountUserListSchema,
  AccountUserSchema,
  ActivationAnswerSchema,
  DetailSchema,
  EmailConfirmAnswerSchema,
  RegistrationAnswerSchema,
  TokenPairSchema,
} from "#contract/accounts";
import { CaptchaProof } from "#contract/verification";

/**
 * A body or query the API reads only once it knows who asks and about whom (the caller's role
 * decides which fields it takes): declared for its callers with the schema the API reads it with,
 * and checked by the handler, so a caller with no right to the route is told that first.
 */
export const readByTheHandler = <S extends z.ZodTypeAny>(_schema: S) => z.custom<z.input<S>>();

const passwordsMatch = <T extends { password?: string; re_password?: string; new_password?: string; re_new_password?: string }>(v: T) =>
  (v.password === undefined || v.password === v.re_password) && (v.new_password === undefined || v.new_password === v.re_new_password);
const mismatch = { message: "Las contraseñas no coinciden.", path: ["re_password"] };
const emailsMatch = (v: { new_email: string; re_new_email: string }) => v.new_email === v.re_new_email;
const emailMismatch = { message: "Los correos no coinciden.", path: ["re_new_email"] };

/**
 * djoser names the user by `uid`; a page opened from the mailed link knows only the email, so either
 * may be sent. Both lead to the same code check, bound to that user's address.
 */
const UserRef = { uid: z.string().uuid("Enlace no válido.").optional(), email: EmailField.optional() };
const oneRef = { message: "Falta el correo electrónico.", path: ["email"] };
const hasRef = (v: { uid?: string; email?: string }) => Boolean(v.uid || v.email);

const Names = { first_name: z.string().trim().max(150).optional(), last_name: z.string().trim().max(150).optional() };
const EmailOnly = z.object({ email: EmailField });
const CurrentPassword = z.string().max(256).optional();

/** POST /auth/users/: a new account; the password is kept only for the browser that chose it (registration_token). */
export const RegistrationSchema = z
  .object({ email: EmailField, password: PasswordField, re_password: z.string(), ...Names, ...CaptchaProof })
  .refine(passwordsMatch, mismatch);
/** POST /auth/users/activation/: the mailed code (token) for the account's address. */
export const ActivationSchema = z
  .object({ ...UserRef, token: CodeField, registration_token: z.string().max(200).optional() })
  .refine(hasRef, oneRef);
export const PasswordResetConfirmSchema = z
  .object({ ...UserRef, token: CodeField, new_password: PasswordField, re_new_password: z.string() })
  .refine(hasRef, oneRef)
  .refine(passwordsMatch, { ...mismatch, path: ["re_new_password"] });
/** An account made by code login has no password yet: it may set one without current_password. */
export const SetPasswordSchema = z
  .object({ current_password: CurrentPassword, new_password: PasswordField, re_new_password: z.string() })
  .refine(passwordsMatch, { ...mismatch, path: ["re_new_password"] });
export const SetEmailSchema = z
  .object({ current_password: CurrentPassword, new_email: EmailField, re_new_email: EmailField })
  .refine(emailsMatch, emailMismatch);
/** djoser's shape; an address is applied only with a code sent to that address. */
export const EmailConfirmSchema = z
  .object({ uid: z.string().uuid("Enlace no válido."), token: CodeField, new_email: EmailField, re_new_email: EmailField })
  .refine(emailsMatch, emailMismatch);

/** PUT (both names required) and PATCH of an account: a customer or partner changes only the names … */
export const AccountChangeSchema = z.object({ ...Names }).strict();
/** … staff also whether it is active, and its role. */
export const StaffAccountChangeSchema = z.object({ ...Names, is_active: z.boolean().optional(), role: z.enum(ROLES).optional() }).strict();
const AccountChange = readByTheHandler(StaffAccountChangeSchema);
/** DELETE of one's own account asks for its password, when it has one. */
export const AccountDeletionSchema = z.object({ current_password: CurrentPassword });
const AccountDeletion = readByTheHandler(AccountDeletionSchema);

/** The account routes of the caller (me) and, as far as the caller may see them, of others (:id). */
const accountRoutes = <P extends "/auth/users/me/" | "/auth/users/:id/">(path: P) => ({
  get: defineRoute({ method: "GET", path, answer: AccountUserSchema }),
  replace: defineRoute({ method: "PUT", path, body: AccountChange, answer: AccountUserSchema }),
  update: defineRoute({ method: "PATCH", path, body: AccountChange, answer: AccountUserSchema }),
  remove: defineRoute({ method: "DELETE", path, body: AccountDeletion, answer: NoContent }),
});
const me = accountRoutes("/auth/users/me/");
const user = accountRoutes("/auth/users/:id/");

export const usersRoutes = {
  register: defineRoute({ method: "POST", path: "/auth/users/", body: RegistrationSchema, answer: RegistrationAnswerSchema }),
  /** djoser answers 204; the tokens in a 200 are what the registration page needs. */
  activate: defineRoute({ method: "POST", path: "/auth/users/activation/", body: ActivationSchema, answer: ActivationAnswerSchema }),
  resendActivation: defineRoute({ method: "POST", path: "/auth/users/resend_activation/", body: EmailOnly, answer: NoContent }),
  resetPassword: defineRoute({ method: "POST", path: "/auth/users/reset_password/", body: EmailOnly, answer: NoContent }),
  resetPasswordConfirm: defineRoute({
    method: "POST",
    path: "/auth/users/reset_password_confirm/",
    body: PasswordResetConfirmSchema,
    answer: NoContent,
  }),
  /** djoser answers 204; a 200 with the pair keeps /cuenta logged in (every other session ends). */
  setPassword: defineRoute({ method: "POST", path: "/auth/users/set_password/", body: SetPasswordSchema, answer: TokenPairSchema }),
  /** 202: the new address gets a code, applied by reset_email_confirm/. */
  setEmail: defineRoute({ method: "POST", path: "/auth/users/set_email/", body: SetEmailSchema, answer: DetailSchema }),
  resetEmail: defineRoute({ method: "POST", path: "/auth/users/reset_email/", body: EmailOnly, answer: NoContent }),
  /** 200 with the pair once the new address is proven; 202 when the code proved only the account and the new address got its own. */
  resetEmailConfirm: defineRoute({
    method: "POST",
    path: "/auth/users/reset_email_confirm/",
    body: EmailConfirmSchema,
    answer: EmailConfirmAnswerSchema,
  }),
  list: defineRoute({ method: "GET", path: "/auth/users/", answer: AccountUserListSchema }),
  me: me.get,
  replaceMe: me.replace,
  updateMe: me.update,
  deleteMe: me.remove,
  get: user.get,
  replace: user.replace,
  update: user.update,
  remove: user.remove,
};
