/**
 * Staff: the sales whose money must go back to the buyer, and giving it back through the provider
 * that took it (api/services/sales/refunds.ts).
 */
import { Router } from "express";
import { PageQuerySchema } from "#contract/page";
import type { RefundAnswer } from "#contract/sales";
import { fromCents } from "#rules/prices";
import type { Database } from "#api/db/client";
import { badRequest, handle, pageAnswer, parseInput } from "#api/http";
import type { PaymentProviders } from "#api/payments/registry";
import { requireStaffActor, type Identify } from "#api/services/access";
import { refundRequiredSales, refundThroughProvider } from "#api/services/sales/refunds";
import { isUuid } from "#rules/uuid";

export function refundsRouter({ db, payments, identify }: { db: Database; payments: PaymentProviders; identify: Identify }): Router {
  const router = Router();
  const refundable = new Set([...payments.all.values()].filter((p) => p.refundPayment).map((p) => p.name));

  router.get(
    "/sales/refund_required/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const q = parseInput(PageQuerySchema, req.query);
      const { count, results } = await refundRequiredSales(db, { page: q.page, pageSize: q.page_size }, refundable);
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );

  router.post(
    "/sales/refund/:id/",
    handle(async (req, res) => {
      const staff = await requireStaffActor(req, identify);
      if (!isUuid(req.params.id)) throw badRequest("Identificador de venta no válido.");
      const saleId = req.params.id.toLowerCase();
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
    }),
  );

  return router;
}
