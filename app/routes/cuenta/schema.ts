import { z } from "zod";
import "#rules/zod-es";
import { CodeField, EmailField, PasswordField } from "#rules/accounts";

/** One schema per form of /cuenta, shared by its action and its component. */

/** The current password, asked by the API only of accounts that have one. */
const CurrentPassword = z.string().max(256).optional();

export const setEmailSchema = z.object({ intent: z.literal("set-email"), new_email: EmailField, current_password: CurrentPassword });

/** The code the new address received. */
export const confirmEmailSchema = z.object({ intent: z.literal("confirm-email"), code: CodeField });

export const setPasswordSchema = z
  .object({
    intent: z.literal("set-password"),
    current_password: CurrentPassword,
    new_password: PasswordField,
    re_new_password: z.string({ required_error: "Repite la contraseña." }).max(256),
  })
  .refine((v) => v.new_password === v.re_new_password, { message: "Las contraseñas no coinciden.", path: ["re_new_password"] });

/** Subscribing is a new consent: the box must be ticked on purpose, never pre-ticked. */
export const subscribeSchema = z.object({
  intent: z.literal("subscribe"),
  consent: z.literal("on", { errorMap: () => ({ message: "Marca la casilla para recibir nuestras ofertas por correo." }) }),
});

export const unsubscribeSchema = z.object({ intent: z.literal("unsubscribe") });

/** «Eliminar mi cuenta», second step: the confirmation (with the password, if the account has one). */
export const deleteAccountSchema = z.object({ intent: z.literal("delete"), current_password: CurrentPassword });

/** «Dispositivos con sesión abierta»: end one session (of this account; the API checks). */
export const endSessionSchema = z.object({ intent: z.literal("end-session"), session: z.string().uuid() });

/** … or every session but the one of this browser. */
export const endOtherSessionsSchema = z.object({ intent: z.literal("end-other-sessions") });
