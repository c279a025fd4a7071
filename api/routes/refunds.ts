/**
 * Staff: the sales whose money must go back to the buyer, and giving it back through the provider
 * that took it (api/services/sales/refunds.ts). Buyers: «Solicitar devolución» of one coupon, and
 * the staff queue of the requests that need a decision (api/services/sales/coupon-refunds.ts).
 */
import { Router, type RequestHandler } from "express";
import { formatCents, fromCents } from "#rules/prices";
import type { Database } from "#api/db/client";
import { badRequest, HttpError, pageAnswer } from "#api/http";
import { on } from "#api/route";
import type { PaymentProviders } from "#api/payments/registry";
import { requireStaffActor, type Identify } from "#api/services/access";
import { refundRequiredSales, refundThroughProvider } from "#api/services/sales/refunds";
import { isUuid } from "#rules/uuid";
import { refundsRoutes, type RefundAnswer, type RefundDecisionAnswer } from "#contract/refunds";
import type { Config } from "#platform/config.server";
import { verifyPurchase } from "#platform/signatures.server";
import { getUser } from "#api/auth/context";
import { decideCouponRefund, refundRequestQueue, requestCouponRefund } from "#api/services/sales/coupon-refunds";

/** The buyer's request is never cached, its refusals (a body that does not fit) included. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  next();
};

/** The routes of contract/refunds.ts. */
export function refundsRouter({
  db,
  config,
  payments,
  identify,
}: {
  db: Database;
  config: Config;
  payments: PaymentProviders;
  identify: Identify;
}): Router {
  const router = Router();
  const refundable = new Set([...payments.all.values()].filter((p) => p.refundPayment).map((p) => p.name));

  on(router, refundsRoutes.refundRequired, async (req, res, { query: q }) => {
    await requireStaffActor(req, identify);
    const { count, results } = await refundRequiredSales(db, { page: q.page, pageSize: q.page_size }, refundable);
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });

  on(router, refundsRoutes.refund, async (req, res, { params }) => {
    const staff = await requireStaffActor(req, identify);
    if (!isUuid(params.id)) throw badRequest("Identificador de venta no válido.");
    const saleId = params.id.toLowerCase();
    const { refundedCents, provider } = await refundThroughProvider(db, payments.all, saleId, {
      reason: "staff: reembolso pendiente",
      requestedBy: staff.id,
    });
    const answer: RefundAnswer = {
      sale_id: saleId,
      status: "refunded",
      refunded: fromCents(refundedCents),
      detail: `Devueltos ${fromCents(refundedCents).replace(".", ",")} € al comprador con ${provider}.`,
    };
    res.set("Cache-Control", "no-store");
    res.json(answer);
  });

  /**
   * The buyer's «Solicitar devolución»: the logged-in owner of the sale, or whoever holds the
   * signature of its coupons link (the purchase mail's). Anyone else learns nothing: 404.
   */
  on(router, refundsRoutes.requestCouponRefund, { before: [noStore] }, async (req, res, { body, params }) => {
    const { coupon, sig } = body;
    const saleId = String(params.id).toLowerCase();
    if (!isUuid(saleId)) throw new HttpError(404, "No hemos encontrado ese cupón en tus pedidos.");
    let owner: string | null | "signed" = getUser(req)?.id ?? null;
    if (sig) {
      if (!verifyPurchase(config.sessionSecrets, saleId, sig)) throw new HttpError(404, "Este enlace no es válido o ha caducado.");
      owner = "signed";
    }
    const { answer, status } = await requestCouponRefund(db, payments.all, { saleId, code: coupon, owner });
    res.status(status).json(answer);
  });

  on(router, refundsRoutes.refundRequests, async (req, res, { query: q }) => {
    await requireStaffActor(req, identify);
    const { count, results } = await refundRequestQueue(db, { page: q.page, pageSize: q.page_size });
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });

  on(router, refundsRoutes.decideRefund, async (req, res, { body: decision, params }) => {
    const staff = await requireStaffActor(req, identify);
    if (!isUuid(params.id)) throw new HttpError(404, "No hemos encontrado esa solicitud.");
    const { request, code } = await decideCouponRefund(db, payments.all, params.id.toLowerCase(), decision, staff.id);
    const answer: RefundDecisionAnswer = {
      id: request.id,
      status: request.status,
      detail:
        request.status === "refunded"
          ? `Devueltos ${formatCents(request.refunded_cents ?? request.amount_cents)} del cupón ${code}.`
          : `Solicitud del cupón ${code} rechazada; se lo hemos escrito al comprador.`,
    };
    res.set("Cache-Control", "no-store");
    res.json(answer);
  });

  return router;
}
