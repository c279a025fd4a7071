import { z } from "zod";
import "#lib/zod-es";
import { isValidEmail } from "#lib/email";

export const MAX_FEEDBACK_COMMENT = 1000;

const stars = z.coerce
  .number({ invalid_type_error: "La valoración debe ser un número de 1 a 5." })
  .int("La valoración debe ser un número entero de 1 a 5.")
  .min(1, "La valoración mínima es 1 estrella.")
  .max(5, "La valoración máxima es 5 estrellas.");

/** POST /public/offers/feedback/ and the /feedback link's query (rate, offer, email). */
export const FeedbackSchema = z.object({
  feedback_stars: stars,
  offer_uuid: z.string().uuid("La oferta del enlace no es válida."),
  user_email: z
    .string()
    .trim()
    .refine(isValidEmail, "El correo del enlace no es válido.")
    .transform((v) => v.toLowerCase()),
});

/** PATCH (any field) and PUT (stars required) /public/offers/feedback/{id}/; the /feedback form. */
export const FeedbackChangeSchema = z.object({
  feedback_stars: stars.optional(),
  comment: z.string().trim().max(MAX_FEEDBACK_COMMENT, `El comentario puede tener como máximo ${MAX_FEEDBACK_COMMENT} caracteres.`).optional(),
});

export type Feedback = { id: string; feedback_stars: number; offer_uuid: string; user_email: string; comment: string };

/** Offer cards and the offer page show the average only from this many verified ratings on. */
export const MIN_RATINGS_SHOWN = 3;

/** The form on the /feedback page: its action and its component both use it. */
export const FeedbackFormSchema = z.object({
  id: z.string().uuid("Valoración no válida."),
  feedback_stars: stars,
  comment: z.string().trim().max(MAX_FEEDBACK_COMMENT, `El comentario puede tener como máximo ${MAX_FEEDBACK_COMMENT} caracteres.`).optional(),
});
