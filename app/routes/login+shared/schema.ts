import { z } from "zod";
import "#rules/zod-es";
import { CodeField, EmailField, PasswordField } from "#rules/accounts";

/** One schema per form of /login and its variants, shared by each action and its component. */

/** Step 1 of the main path: the email a code is sent to. */
export const emailStepSchema = z.object({ intent: z.literal("send-code"), email: EmailField });

/** Step 2: the 6-digit code from the mail. */
export const codeStepSchema = z.object({ intent: z.literal("verify-code"), code: CodeField });

/** The password variant. Any non-empty password is checked by the API; rules apply at creation. */
export const passwordLoginSchema = z.object({
  intent: z.literal("password"),
  email: EmailField,
  password: z.string({ required_error: "Escribe tu contraseña." }).min(1, "Escribe tu contraseña.").max(256),
});

/** /login/registro, step 1: the new account's email and password, twice. */
export const registerSchema = z
  .object({
    intent: z.literal("register"),
    email: EmailField,
    password: PasswordField,
    re_password: z.string({ required_error: "Repite la contraseña." }).max(256),
  })
  .refine((v) => v.password === v.re_password, { message: "Las contraseñas no coinciden.", path: ["re_password"] });

/** /login/registro, step 2: the activation code mailed to that email. */
export const activationSchema = z.object({ intent: z.literal("activate"), email: EmailField, code: CodeField });

/** «Enviar otro código» on the activation and reset steps. */
export const resendSchema = z.object({ intent: z.literal("resend"), email: EmailField });

/** /login/recuperar, step 1: where to send the reset code. */
export const forgotPasswordSchema = z.object({ intent: z.literal("forgot"), email: EmailField });

/** /login/recuperar, step 2: the code and the new password, twice. */
export const resetPasswordSchema = z
  .object({
    intent: z.literal("reset"),
    email: EmailField,
    code: CodeField,
    new_password: PasswordField,
    re_new_password: z.string({ required_error: "Repite la contraseña." }).max(256),
  })
  .refine((v) => v.new_password === v.re_new_password, { message: "Las contraseñas no coinciden.", path: ["re_new_password"] });
