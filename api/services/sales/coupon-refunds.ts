/**
 * «Solicitar devolución»: a buyer asks for one coupon's money back. rules/refunds.ts says how
 * (automatic, staff review, refused); this does it. The coupon row is the one place a refund
 * request and a redemption meet: the request holds it (refund_requested_at) under a row lock
 * only if it is unredeemed, and the till redeems only a coupon that is not held (coupons.ts), so
 * of the two racing exactly one wins. One request per coupon: asking again answers the same one.
 */
import { sql } from "drizzle-orm";
import type { CouponRefund, CouponRefundAnswer, CouponStatus, RefundOutcome } from "#contract/refunds";
import { refundRoute } from "#rules/refunds";
import type { CouponState } from "#rules/coupons";
import { formatCents, fromCents } from "#rules/prices";
import { query, transactionWithRetry, type Database, type Executor } from "#api/db/client";
import { HttpError, notFound } from "#api/http";
import { queueMail } from "#api/mail/outbox";
import type { PaymentProvider } from "#api/payments/types";
import { markCouponsRefunded } from "#api/services/coupon-facts";
import { logger } from "#platform/logger.server";
import { refundCouponPrice } from "./refunds";
import { madridDate } from "#rules/dates";

export type RequestRow = {
  id: string;
  coupon_id: string;
  sale_id: string;
  status: RefundOutcome;
  reason: string;
  detail: string | null;
  amount_cents: number;
  refunded_cents: number | null;
  updated_at: Date | string;
};

type CouponRow = {
  id: string;
  code: string;
  redeemed_at: Date | string | null;
  refunded_at: Date | string | null;
  sale_id: string;
  sale_status: string;
  paid_at: Date | string | null;
  user_id: string | null;
  email: string;
  paid_unit_cents: number;
  for_present: boolean;
  price_option_id: string;
  valid_until: string | null;
};

const COUPON_COLUMNS = sql`c.id, c.code, c.redeemed_at, c.refunded_at, s.id AS sale_id, s.status AS sale_status, s.paid_at,
  s.user_id, s.email, si.paid_unit_cents, si.for_present, si.price_option_id, o.valid_until::text AS valid_until`;
const COUPON_FROM = sql`coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id JOIN offers o ON o.id = si.offer_id`;

/** The state the till would show, as api/services/coupons.ts reads it. */
function stateOf(row: Pick<CouponRow, "redeemed_at" | "refunded_at" | "sale_status" | "valid_until">, today: string): CouponState {
  if (row.redeemed_at) return "redeemed";
  if (row.refunded_at || row.sale_status !== "paid") return "refunded";
  if (row.valid_until && row.valid_until.slice(0, 10) < today) return "expired";
  return "valid";
}

const MESSAGES: Record<RefundOutcome, (r: RequestRow, code: string) => string> = {
  processing: () => "Estamos devolviendo el dinero de este cupón. Vuelve a mirar en unos segundos.",
  refunded: (r, code) =>
    `Te hemos devuelto ${formatCents(r.refunded_cents ?? r.amount_cents)} del cupón ${code}, a la misma tarjeta o cuenta con la que pagaste (tu banco puede tardar unos días en mostrarlo). El cupón ya no es válido.`,
  review: (r) =>
    `${r.reason || "Nuestro equipo revisará la solicitud."} Te escribiremos con la respuesta en unos días; mientras tanto el cupón no se puede canjear.`,
  refused: (r) => r.reason,
};

/** A request as its buyer is told it, on screen and by mail. */
export function refundView(r: RequestRow, code: string): CouponRefund {
  return {
    outcome: r.status,
    detail: MESSAGES[r.status](r, code),
    refunded: r.status === "refunded" ? fromCents(r.refunded_cents ?? r.amount_cents) : null,
    at: new Date(r.updated_at).toISOString(),
  };
}

/** The mail that tells the buyer what happened: once per request and outcome. */
async function tellBuyer(tx: Executor, email: string, request: RequestRow) {
  if (request.status === "processing") return;
  await queueMail(tx, {
    kind: "coupon-refund",
    to: email,
    dedupeKey: `coupon-refund:${request.id}:${request.status}`,
    data: { request_id: request.id, status: request.status },
  });
}

const requestOf = async (tx: Executor, couponId: string) =>
  (await query<RequestRow>(tx, sql`SELECT * FROM coupon_refund_requests WHERE coupon_id = ${couponId}`))[0] ?? null;

/**
 * POST /sales/purchase/{sale}/refund/. `owner`: the account asking, when it is not the mail's
 * signed link; someone else's sale or coupon is answered as unknown.
 */
export async function requestCouponRefund(
  db: Database,
  providers: Map<string, PaymentProvider>,
  { saleId, code, owner }: { saleId: string; code: string; owner: string | null | "signed" },
  now = new Date(),
): Promise<{ answer: CouponRefundAnswer; status: number }> {
  const claimed = await transactionWithRetry(db, async (tx) => {
    // The row lock serialises requests for this coupon with each other and with the till.
    const [coupon] = await query<CouponRow>(
      tx,
      sql`SELECT ${COUPON_COLUMNS} FROM ${COUPON_FROM} WHERE s.id = ${saleId} AND c.code = ${code} FOR UPDATE OF c`,
    );
    if (!coupon || coupon.paid_at === null || (owner !== "signed" && (owner === null || coupon.user_id !== owner))) {
      throw notFound("No hemos encontrado ese cupón en tus pedidos.");
    }
    const existing = await requestOf(tx, coupon.id);
    if (existing) return { coupon, request: existing, fresh: false };
    const state = stateOf(coupon, madridDate(now));
    const route = refundRoute({ state, paidAt: new Date(coupon.paid_at), giftGiven: coupon.for_present }, now);
    const status: RefundOutcome = route.route === "automatic" ? "processing" : route.route;
    const [request] = await query<RequestRow>(
      tx,
      sql`INSERT INTO coupon_refund_requests (coupon_id, sale_id, status, reason, amount_cents, requested_by)
          VALUES (${coupon.id}, ${coupon.sale_id}, ${status}, ${route.route === "automatic" ? "" : route.reason},
                  ${coupon.paid_unit_cents}, ${owner === "signed" ? null : owner})
          RETURNING *`,
    );
    if (status !== "refused") {
      await tx.execute(sql`UPDATE coupons SET refund_requested_at = now() WHERE id = ${coupon.id} AND redeemed_at IS NULL`);
    }
    await tellBuyer(tx, coupon.email, request);
    return { coupon, request, fresh: true };
  });
  let request = claimed.request;
  if (claimed.fresh && request.status === "processing") {
    request = await refundNow(db, providers, claimed.coupon, request, null);
  }
  const answer = { ...refundView(request, claimed.coupon.code), sale_id: claimed.coupon.sale_id, code: claimed.coupon.code };
  return { answer, status: request.status === "refused" ? 409 : 200 };
}

/**
 * The coupon's price back through the sale's provider; on its yes, in one transaction: the coupon
 * refunded, its ticket back on sale, the request closed and the buyer's mail queued. A refusal, or
 * an answer that never came, sends the request to the staff queue with what the provider said.
 */
async function refundNow(
  db: Database,
  providers: Map<string, PaymentProvider>,
  coupon: CouponRow,
  request: RequestRow,
  decidedBy: string | null,
): Promise<RequestRow> {
  const ask = () =>
    refundCouponPrice(
      db,
      providers,
      coupon.sale_id,
      { amountCents: request.amount_cents, reason: `cupón ${coupon.code}: devolución solicitada`, requestedBy: decidedBy },
      async (t, refundedCents) => {
        await markCouponsRefunded(t, [coupon.id]);
        await t.execute(sql`UPDATE price_options SET available = available + 1 WHERE id = ${coupon.price_option_id}`);
        const [closed] = await query<RequestRow>(
          t,
          sql`UPDATE coupon_refund_requests SET status = 'refunded', refunded_cents = ${refundedCents}, detail = NULL,
                     decided_by = coalesce(${decidedBy}::uuid, decided_by), updated_at = now()
              WHERE id = ${request.id} RETURNING *`,
        );
        await tellBuyer(t, coupon.email, closed);
      },
    );
  try {
    // Another coupon of the same sale being refunded holds the sale's one refund in flight: wait for it.
    for (let attempt = 1; ; attempt++) {
      try {
        await ask();
        break;
      } catch (error) {
        const busy = error instanceof HttpError && error.status === 409 && error.detail.startsWith("Ya hay una devolución en curso");
        if (!busy || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
      }
    }
    return (await requestOf(db, coupon.id))!;
  } catch (error) {
    const detail = error instanceof HttpError ? error.detail : error instanceof Error ? error.message : String(error);
    logger.warn({ saleId: coupon.sale_id, couponId: coupon.id, detail }, "Devolución de un cupón a revisión.");
    return transactionWithRetry(db, async (t) => {
      const [review] = await query<RequestRow>(
        t,
        sql`UPDATE coupon_refund_requests SET status = 'review', detail = ${detail},
                   reason = 'No hemos podido devolverlo automáticamente: nuestro equipo revisará la solicitud.', updated_at = now()
            WHERE id = ${request.id} RETURNING *`,
      );
      await tellBuyer(t, coupon.email, review);
      return review;
    });
  }
}

/** POST /sales/refund_requests/{id}/ (staff): approve (the money back now) or refuse (with the reason the buyer reads). */
export async function decideCouponRefund(
  db: Database,
  providers: Map<string, PaymentProvider>,
  id: string,
  decision: { decision: "approve" } | { decision: "refuse"; reason: string },
  staffId: string,
): Promise<{ request: RequestRow; code: string }> {
  const next = decision.decision === "approve" ? "processing" : "refused";
  const taken = await transactionWithRetry(db, async (tx) => {
    const [request] = await query<RequestRow>(
      tx,
      sql`UPDATE coupon_refund_requests SET status = ${next}, decided_by = ${staffId}, updated_at = now(),
                 reason = ${decision.decision === "refuse" ? decision.reason : sql`reason`}
          WHERE id = ${id} AND status = 'review' RETURNING *`,
    );
    if (!request) {
      const known = await query<{ id: string }>(tx, sql`SELECT id FROM coupon_refund_requests WHERE id = ${id}`);
      if (!known.length) throw notFound("No hemos encontrado esa solicitud.");
      throw new HttpError(409, "Esta solicitud ya está resuelta o en curso.");
    }
    const [coupon] = await query<CouponRow>(tx, sql`SELECT ${COUPON_COLUMNS} FROM ${COUPON_FROM} WHERE c.id = ${request.coupon_id}`);
    if (next === "refused") {
      // Refused: the coupon is the buyer's to use again.
      await tx.execute(sql`UPDATE coupons SET refund_requested_at = NULL WHERE id = ${coupon.id}`);
      await tellBuyer(tx, coupon.email, request);
    }
    return { request, coupon };
  });
  if (next === "refused") return { request: taken.request, code: taken.coupon.code };
  const request = await refundNow(db, providers, taken.coupon, taken.request, staffId);
  if (request.status !== "refunded") throw new HttpError(409, `No se ha podido devolver: ${request.detail ?? "inténtalo de nuevo"}`);
  return { request, code: taken.coupon.code };
}

/** GET /sales/refund_requests/ (staff): the requests waiting for a decision, oldest first. */
export async function refundRequestQueue(db: Executor, page: { page: number; pageSize: number }) {
  const open = sql`r.status IN ('review', 'processing')`;
  const [[{ n }], rows] = await Promise.all([
    query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM coupon_refund_requests r WHERE ${open}`),
    query<
      RequestRow & {
        code: string;
        email: string;
        offer_title: string;
        provider: string;
        created_at: Date | string;
        paid_at: Date | string | null;
      }
    >(
      db,
      sql`SELECT r.*, c.code, s.email, o.title AS offer_title, s.provider, s.paid_at
          FROM coupon_refund_requests r JOIN coupons c ON c.id = r.coupon_id JOIN sale_items si ON si.id = c.sale_item_id
          JOIN sales s ON s.id = r.sale_id JOIN offers o ON o.id = si.offer_id
          WHERE ${open} ORDER BY r.created_at, r.id
          LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
    ),
  ]);
  return {
    count: Number(n),
    results: rows.map((r) => ({
      id: r.id,
      sale_id: r.sale_id,
      code: r.code,
      email: r.email,
      offer_title: r.offer_title,
      amount: fromCents(r.amount_cents),
      provider: r.provider,
      status: r.status,
      reason: r.reason,
      detail: r.detail,
      created_at: new Date(r.created_at).toISOString(),
      paid_at: r.paid_at === null ? null : new Date(r.paid_at).toISOString(),
    })),
  };
}

/**
 * Every coupon of these sales with its state, its request and whether «Solicitar devolución» may
 * be offered (no request yet, and the rule does not refuse it): the buyer's pages and the mail.
 */
export async function couponStatuses(db: Executor, saleIds: string[], now = new Date()): Promise<Map<string, CouponStatus>> {
  if (saleIds.length === 0) return new Map();
  const rows = await query<CouponRow & { request: RequestRow | null }>(
    db,
    sql`SELECT ${COUPON_COLUMNS}, CASE WHEN r.id IS NULL THEN NULL ELSE to_jsonb(r) END AS request
        FROM ${COUPON_FROM} LEFT JOIN coupon_refund_requests r ON r.coupon_id = c.id
        WHERE s.id = ANY(${sql.param(saleIds)}::uuid[])`,
  );
  const today = madridDate(now);
  return new Map(
    rows.map((row) => {
      const state = stateOf(row, today);
      const request = typeof row.request === "string" ? (JSON.parse(row.request) as RequestRow) : row.request;
      const refundable =
        !request &&
        row.paid_at !== null &&
        refundRoute({ state, paidAt: new Date(row.paid_at), giftGiven: row.for_present }, now).route !== "refused";
      return [row.id, { uuid: row.id, code: row.code, state, refundable, refund: request ? refundView(request, row.code) : null }];
    }),
  );
}
