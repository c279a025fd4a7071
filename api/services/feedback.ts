import { sql, type SQL } from "drizzle-orm";
import { query, type Executor } from "#api/db/client";
import { HttpError } from "#api/http";
import { mailNoLaterThanStatement, queueMailNoLaterThan } from "#api/mail/outbox";
import type { Feedback } from "#contract/feedback";

export const DEFAULT_FEEDBACK_DELAY_DAYS = 3;

/**
 * The "¿qué tal?" mail for one buyer and offer, sent `delayDays` after `from`. One per email and
 * offer, whatever causes it: the purchase queues it; redeeming a coupon asks again with a short
 * delay, which only brings a still-queued request forward.
 */
function feedbackRequest({
  email,
  offerId,
  delayDays = DEFAULT_FEEDBACK_DELAY_DAYS,
  from = new Date(),
}: {
  email: string;
  offerId: string;
  delayDays?: number;
  from?: Date;
}) {
  const to = email.trim().toLowerCase();
  const sendAfter = new Date(from.getTime() + delayDays * 86_400_000);
  return {
    kind: "feedback-request",
    to,
    dedupeKey: `feedback:${offerId.toLowerCase()}:${to}`,
    data: { offer_uuid: offerId.toLowerCase() },
    sendAfter,
  };
}

export async function queueFeedbackRequest(tx: Executor, request: Parameters<typeof feedbackRequest>[0]): Promise<void> {
  await queueMailNoLaterThan(tx, feedbackRequest(request));
}

/** After a redemption: ask its buyer for a rating soon after they used it. */
export const FEEDBACK_AFTER_REDEMPTION_HOURS = 2;

/** The redemption's feedback request as a statement, written only `when` it holds (the till's redemption won). */
export function feedbackAfterRedemptionStatement(
  { email, offerId, delayHours = FEEDBACK_AFTER_REDEMPTION_HOURS }: { email: string; offerId: string; delayHours?: number },
  when: SQL,
): SQL {
  return mailNoLaterThanStatement(feedbackRequest({ email, offerId, delayDays: delayHours / 24 }), when);
}

/**
 * After an undone redemption: the rating it brought forward goes back to when the purchase asked
 * for it (DEFAULT_FEEDBACK_DELAY_DAYS after paying, or now if that has passed), unless another of
 * the buyer's coupons for the offer is still redeemed. A mail already sent stays sent.
 */
export async function feedbackAfterUndo(
  tx: Executor,
  { email, offerId, paidAt }: { email: string; offerId: string; paidAt: Date | string },
) {
  const { dedupeKey, to } = feedbackRequest({ email, offerId });
  await query(
    tx,
    sql`UPDATE mail_outbox SET send_after = greatest(now(), ${new Date(paidAt).toISOString()}::timestamptz + make_interval(days => ${DEFAULT_FEEDBACK_DELAY_DAYS}))
        WHERE dedupe_key = ${dedupeKey} AND status = 'queued'
          AND NOT EXISTS (SELECT 1 FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id
                          WHERE si.offer_id = ${offerId} AND lower(s.email) = ${to} AND c.redeemed_at IS NOT NULL)`,
  );
}

type FeedbackAnswer = Feedback;

/**
 * Who asks, as the route proved it: the address of a feedback link (with its offer) or of the
 * logged-in account (any offer it bought).
 */
export type Rater = { email: string; offerId: string | null };

type FeedbackRow = { id: string; stars: number; offer_id: string; email: string; comment: string };
const isTheirs = (r: FeedbackRow, rater: Rater | null) =>
  rater !== null && r.email === rater.email && (rater.offerId === null || rater.offerId === r.offer_id);
/** The buyer's address goes only to that buyer. */
const answer = (r: FeedbackRow, rater: Rater | null): FeedbackAnswer => ({
  id: r.id,
  feedback_stars: r.stars,
  offer_uuid: r.offer_id,
  ...(isTheirs(r, rater) ? { user_email: r.email } : {}),
  comment: r.comment,
});
const NOT_FOUND = "No hemos encontrado esa valoración.";

/** Ratings count only from addresses that paid for the offer. */
async function boughtIt(db: Executor, offerId: string, email: string): Promise<boolean> {
  const rows = await query(
    db,
    sql`
    SELECT 1 FROM sales s JOIN sale_items si ON si.sale_id = s.id
    WHERE si.offer_id = ${offerId} AND lower(s.email) = ${email} AND s.status = 'paid' LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * POST /public/offers/feedback/: one rating per email and offer. A later rating replaces the
 * stars of the earlier one (keeping its comment), so clicking another star in the mail changes
 * the rating and nothing multiplies. The rater is proven by the route; this only checks that
 * the address bought the offer, which that rater may know.
 */
export async function submitFeedback(db: Executor, input: { stars: number; offerId: string; email: string }): Promise<FeedbackAnswer> {
  const email = input.email.trim().toLowerCase();
  const offerId = input.offerId.toLowerCase();
  const rater = { email, offerId };
  const offer = await query(db, sql`SELECT 1 FROM offers WHERE id = ${offerId}`);
  if (offer.length === 0) throw new HttpError(404, "Esta oferta no existe.");
  if (!(await boughtIt(db, offerId, email))) {
    throw new HttpError(403, "Solo pueden valorar una oferta quienes la han comprado con este correo.");
  }
  const [row] = await query<FeedbackRow>(
    db,
    sql`
    INSERT INTO offer_feedback (offer_id, email, stars) VALUES (${offerId}, ${email}, ${input.stars})
    ON CONFLICT (offer_id, email) DO UPDATE SET stars = excluded.stars, updated_at = now()
    RETURNING id, stars, offer_id, email, comment`,
  );
  return answer(row, rater);
}

/**
 * PATCH changes what is given; PUT replaces the rating (a missing comment empties it). Only the
 * rating's own buyer: anyone else's id is not found, as an unknown one.
 */
export async function updateFeedback(
  db: Executor,
  id: string,
  change: { stars?: number; comment?: string },
  mode: "patch" | "put",
  rater: Rater,
): Promise<FeedbackAnswer> {
  const comment = mode === "put" ? (change.comment ?? "") : change.comment;
  const [row] = await query<FeedbackRow>(
    db,
    sql`
    UPDATE offer_feedback SET
      stars = coalesce(${change.stars ?? null}::int, stars),
      comment = coalesce(${comment ?? null}::text, comment),
      updated_at = now()
    WHERE id = ${id} AND email = ${rater.email} AND offer_id = coalesce(${rater.offerId}::uuid, offer_id)
    RETURNING id, stars, offer_id, email, comment`,
  );
  if (!row) throw new HttpError(404, NOT_FOUND);
  return answer(row, rater);
}

/** Anyone may read a rating (its stars and comment are public); its address only its buyer. */
export async function getFeedback(db: Executor, id: string, rater: Rater | null): Promise<FeedbackAnswer> {
  const [row] = await query<FeedbackRow>(db, sql`SELECT id, stars, offer_id, email, comment FROM offer_feedback WHERE id = ${id}`);
  if (!row) throw new HttpError(404, NOT_FOUND);
  return answer(row, rater);
}

/** The rater's own rating of one offer, or null while there is none. */
export async function feedbackOf(db: Executor, rater: Rater, offerId: string): Promise<FeedbackAnswer | null> {
  const [row] = await query<FeedbackRow>(
    db,
    sql`
    SELECT id, stars, offer_id, email, comment FROM offer_feedback WHERE offer_id = ${offerId} AND email = ${rater.email}`,
  );
  return row ? answer(row, rater) : null;
}
