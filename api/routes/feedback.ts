import { Router } from "express";
import { z } from "zod";
import { FeedbackSchema, FeedbackChangeSchema } from "#lib/schemas/feedback";
import { isUuid } from "#lib/uuid";
import type { Database } from "#api/db/client";
import { handle, HttpError, parseInput } from "#api/http";
import { getFeedback, submitFeedback, updateFeedback } from "#api/services/feedback";

/** /public/offers/feedback/: the star links in the feedback mail land here through /feedback. */
export function feedbackRouter(db: Database): Router {
  const router = Router();
  router.post(
    "/",
    handle(async (req, res) => {
      const body = parseInput(FeedbackSchema, req.body);
      const saved = await submitFeedback(db, { stars: body.feedback_stars, offerId: body.offer_uuid, email: body.user_email });
      res.status(201).json(saved);
    }),
  );
  const id = (raw: string) => {
    if (!isUuid(raw)) throw new HttpError(404, "No hemos encontrado esa valoración.");
    return raw.toLowerCase();
  };
  router.get(
    "/:id/",
    handle(async (req, res) => {
      res.set("Cache-Control", "private, no-store");
      res.json(await getFeedback(db, id(req.params.id)));
    }),
  );
  for (const method of ["patch", "put"] as const) {
    router[method](
      "/:id/",
      handle(async (req, res) => {
        const schema = method === "put" ? FeedbackChangeSchema.required({ feedback_stars: true }) : FeedbackChangeSchema;
        const body = parseInput(schema as z.ZodType<z.infer<typeof FeedbackChangeSchema>>, req.body);
        res.json(await updateFeedback(db, id(req.params.id), { stars: body.feedback_stars, comment: body.comment }, method));
      }),
    );
  }
  return router;
}
