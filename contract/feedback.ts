import { z } from "zod";
import "#rules/zod-es";
import { isValidEmail } from "#rules/email";
import { defineRoute } from "#contract/define-route";

export const MAX_FEEDBACK_COMMENT = 1000;

export const stars = z.coerce
  .number({ invalid_type_error: "La valoración debe ser un número de 1 a 5." })
  .int("La valoración debe ser un número entero de 1 a 5.")
  .min(1, "La valoración mínima es 1 estrella.")
  .max(5, "La valoración máxima es 5 estrellas.");

/** The `t=` of the feedback mail's star links: it names the buyer and the offer (docs/mail.md). */
const linkToken = z.string().trim().max(600, "El enlace de la valoración no es válido.").optional();

const comment = z.string().trim().max(MAX_FEEDBACK_COMMENT, `El comentario puede tener como máximo ${MAX_FEEDBACK_COMMENT} caracteres.`);

/**
 * POST /public/offers/feedback/: the stars, and who gives them: the mail's link token (t), or the
 * logged-in buyer (then offer_uuid names the offer). user_email is the contract's field; when it
 * is given it must be that same buyer.
 */
export const FeedbackSchema = z
  .object({
    feedback_stars: stars,
    t: linkToken,
    offer_uuid: z.string().uuid("La oferta no es válida.").optional(),
    user_email: z
      .string()
      .trim()
      .refine(isValidEmail, "El correo no es válido.")
      .transform((v) => v.toLowerCase())
      .optional(),
  })
  .refine((v) => v.t || v.offer_uuid, {
    message: "Falta la oferta que valoras (offer_uuid) o el enlace del correo (t).",
    path: ["offer_uuid"],
  });

/** PATCH (any field) and PUT (stars required) /public/offers/feedback/{id}/, with the same t. */
export const FeedbackChangeSchema = z.object({
  feedback_stars: stars.optional(),
  comment: comment.optional(),
  t: linkToken,
});

/** user_email only for its buyer (the link's holder or the account): to anyone else it is absent. */
export const FeedbackAnswerSchema = z.object({
  id: z.string(),
  feedback_stars: z.number().int(),
  offer_uuid: z.string(),
  user_email: z.string().optional(),
  comment: z.string(),
});
export type Feedback = z.infer<typeof FeedbackAnswerSchema>;

/** GET /public/offers/feedback/mine/: the offer of the link (or of offer_uuid) and its buyer's rating, if any. */
export const FeedbackOfMineSchema = z.object({ offer_uuid: z.string(), feedback: FeedbackAnswerSchema.nullable() });
export type FeedbackOfMine = z.infer<typeof FeedbackOfMineSchema>;

/** The link's token (t), or a logged-in buyer's offer (offer_uuid), as a query. */
const RaterQuery = z.object({ t: z.string().optional(), offer_uuid: z.string().optional() });

/**
 * /public/offers/feedback/: the star links in the feedback mail land here through /feedback.
 * Writing needs the buyer; reading a rating by id is public except its address.
 */
export const feedbackRoutes = {
  submit: defineRoute({ method: "POST", path: "/public/offers/feedback/", body: FeedbackSchema, answer: FeedbackAnswerSchema }),
  mine: defineRoute({ method: "GET", path: "/public/offers/feedback/mine/", query: RaterQuery, answer: FeedbackOfMineSchema }),
  get: defineRoute({
    method: "GET",
    path: "/public/offers/feedback/:id/",
    query: RaterQuery.pick({ t: true }),
    answer: FeedbackAnswerSchema,
  }),
  update: defineRoute({ method: "PATCH", path: "/public/offers/feedback/:id/", body: FeedbackChangeSchema, answer: FeedbackAnswerSchema }),
  replace: defineRoute({
    method: "PUT",
    path: "/public/offers/feedback/:id/",
    body: FeedbackChangeSchema.required({ feedback_stars: true }),
    answer: FeedbackAnswerSchema,
  }),
};

/** Offer cards and the offer page show the average only from this many verified ratings on. */
export const MIN_RATINGS_SHOWN = 3;

/** The /feedback page's forms: its action and its component both use them. */
export const FeedbackRateFormSchema = z.object({ intent: z.literal("rate"), feedback_stars: stars });
export const FeedbackFormSchema = z.object({
  intent: z.literal("edit"),
  id: z.string().uuid("Valoración no válida."),
  feedback_stars: stars,
  comment: comment.optional(),
});
export const FeedbackPageSchema = z.discriminatedUnion("intent", [FeedbackRateFormSchema, FeedbackFormSchema]);
