import { Router, type Request } from "express";
import type { Config } from "#platform/config.server";
import { feedbackRoutes, type FeedbackOfMine } from "#contract/feedback";
import { openLink } from "#platform/signatures.server";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { HttpError } from "#api/http";
import { on } from "#api/route";
import { getUser } from "#api/auth/context";
import { feedbackOf, getFeedback, submitFeedback, updateFeedback, type Rater } from "#api/services/feedback";

/**
 * One answer for every rating that does not prove its buyer, given before anything is looked
 * up: whether that address bought the offer stays unknown to whoever asks.
 */
const notTheBuyer = () =>
  new HttpError(403, "Para valorar una compra usa las estrellas del correo que te enviamos o entra en la cuenta con la que compraste.", {
    code: "not_the_buyer",
  });

/**
 * The buyer a request proves: the feedback mail's link token (t), for its address and offer, or
 * the logged-in account, for its own address. A given offer_uuid or user_email that is not
 * theirs proves nothing.
 */
function raterOf(req: Request, config: Config, given: { t?: string; offer_uuid?: string; user_email?: string }): Rater | null {
  const offer = given.offer_uuid?.toLowerCase();
  if (given.t) {
    const link = openLink(config.sessionSecrets, "feedback", given.t);
    if (!link?.offer || (offer && offer !== link.offer) || (given.user_email && given.user_email !== link.email)) return null;
    return { email: link.email, offerId: link.offer };
  }
  const user = getUser(req);
  const email = user?.email.trim().toLowerCase();
  if (!email || (given.user_email && given.user_email !== email)) return null;
  return { email, offerId: null };
}

/** The routes of contract/feedback.ts. */
export function feedbackRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  on(router, feedbackRoutes.submit, async (req, res, { body }) => {
    const rater = raterOf(req, config, body);
    if (!rater) throw notTheBuyer();
    const offerId = rater.offerId ?? body.offer_uuid!;
    const saved = await submitFeedback(db, { stars: body.feedback_stars, offerId, email: rater.email });
    res.set("Cache-Control", "private, no-store").status(201).json(saved);
  });
  // What the /feedback page shows before anything is saved: the link's offer and the rating its
  // buyer gave, if any. A link token, or a logged-in buyer with ?offer_uuid=.
  on(router, feedbackRoutes.mine, async (req, res, { query }) => {
    const offer = query.offer_uuid;
    if (offer !== undefined && !isUuid(offer)) throw new HttpError(400, "La oferta no es válida.");
    const rater = raterOf(req, config, { t: query.t, offer_uuid: offer });
    const offerId = rater?.offerId ?? offer?.toLowerCase();
    if (!rater) throw notTheBuyer();
    if (!offerId) throw new HttpError(400, "Falta la oferta que valoras (offer_uuid) o el enlace del correo (t).");
    const answer: FeedbackOfMine = { offer_uuid: offerId, feedback: await feedbackOf(db, rater, offerId) };
    res.set("Cache-Control", "private, no-store").json(answer);
  });
  const id = (raw: string) => {
    if (!isUuid(raw)) throw new HttpError(404, "No hemos encontrado esa valoración.");
    return raw.toLowerCase();
  };
  on(router, feedbackRoutes.get, async (req, res, { params, query }) => {
    const rater = raterOf(req, config, { t: query.t });
    res.set("Cache-Control", "private, no-store");
    res.json(await getFeedback(db, id(params.id), rater));
  });
  for (const [route, method] of [
    [feedbackRoutes.update, "patch"],
    [feedbackRoutes.replace, "put"],
  ] as const) {
    on(router, route, async (req, res, { params, body }) => {
      const rater = raterOf(req, config, { t: body.t ?? (typeof req.query.t === "string" ? req.query.t : undefined) });
      if (!rater) throw notTheBuyer();
      res.set("Cache-Control", "private, no-store");
      res.json(await updateFeedback(db, id(params.id), { stars: body.feedback_stars, comment: body.comment }, method, rater));
    });
  }
  return router;
}
