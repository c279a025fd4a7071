import { Router } from "express";
import type { Config } from "#platform/config.server";
import { requireCaptcha } from "#api/captcha";
import { BecomePartnerSchema, CouponCodeSchema, HONEYPOT_FIELD, SalesQuerySchema } from "#contract/partner";
import type { Database } from "#api/db/client";
import { handle, idParam, pageAnswer, parseInput } from "#api/http";
import { PageQuerySchema } from "#contract/page";
import { clientAddress, limits } from "#api/rate-limit";
import { partnerScope, requireStaffActor, type Identify } from "#api/services/access";
import {
  partnerSales,
  partnerSalesBatches,
  redeemCoupon,
  undoRedemption,
  SALES_CSV_HEADER,
  salesCsvLines,
  salesPerDay,
  verifyCoupon,
} from "#api/services/coupons";
import { createLead, listLeads } from "#api/services/partner-leads";
import { findUnredeemed, redeemedToday } from "#api/services/till";
import { BuyerSearchSchema } from "#contract/till";

export function partnerSalesRouter({ db, config, identify }: { db: Database; config: Config; identify: Identify }): Router {
  const router = Router();

  router.post(
    "/verification/coupon/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "till.redeem");
      const { code } = parseInput(CouponCodeSchema, req.body);
      res.set("Cache-Control", "no-store");
      res.json(await verifyCoupon(db, scope, code));
    }),
  );

  router.post(
    "/sales/redeem/:id/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "till.redeem");
      res.json(await redeemCoupon(db, scope, idParam(req)));
    }),
  );

  router.post(
    "/sales/redeem/:id/undo/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "till.undo");
      res.json(await undoRedemption(db, scope, idParam(req)));
    }),
  );

  /** «Hoy: N canjeados»: today's redemptions at this partner's tills. */
  router.get(
    "/sales/today/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "till.today");
      res.set("Cache-Control", "private, no-store");
      res.json(await redeemedToday(db, scope));
    }),
  );

  /** The code is lost: the buyer's coupons still to redeem, by their name or email. */
  router.get(
    "/sales/search/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "till.search");
      const { q } = parseInput(BuyerSearchSchema, req.query);
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await findUnredeemed(db, scope, q) });
    }),
  );

  /** The partner's sales: one row per coupon of its offers, as JSON or a CSV file. */
  router.get(
    "/sales/partner/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "sales.read");
      const q = parseInput(SalesQuerySchema, req.query);
      res.set("Cache-Control", "private, no-store");
      if (q.format === "csv") {
        const day = new Date().toISOString().slice(0, 10);
        res.set("Content-Disposition", `attachment; filename="ventas-${day}.csv"`);
        res.type("text/csv; charset=utf-8");
        // Written batch by batch: an export of every coupon a partner ever sold is never in memory whole.
        res.write(SALES_CSV_HEADER);
        for await (const rows of partnerSalesBatches(db, scope, q)) res.write(salesCsvLines(rows));
        res.end();
        return;
      }
      const { count, results, totals } = await partnerSales(db, scope, q, { page: q.page, pageSize: q.page_size });
      res.json({ ...pageAnswer(req, q.page, q.page_size, count, results), totals });
    }),
  );

  /** «Ventas» per day over the same filter: the page's chart of sales and redemptions. */
  router.get(
    "/sales/partner/per_day/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "sales.read");
      const q = parseInput(SalesQuerySchema, req.query);
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await salesPerDay(db, scope, q) });
    }),
  );

  router.post(
    "/sales/become_partner/",
    handle(async (req, res) => {
      // Per address and per applicant: a form that sends two mails is worth abusing otherwise.
      const message = "Has enviado varias solicitudes seguidas. Inténtalo de nuevo más tarde.";
      await limits.consume(`become-partner:ip:${clientAddress(req)}`, { points: 10, durationSec: 3600, message });
      const input = parseInput(BecomePartnerSchema, req.body);
      await limits.consume(`become-partner:email:${input.email}`, { points: 3, durationSec: 24 * 3600, message });
      if (input[HONEYPOT_FIELD]) {
        // A bot: answered like a person so it does not learn to skip the field; nothing is stored or sent.
        res.status(201).json({ received: true });
        return;
      }
      // Turnstile's token when the visitor's browser ran the widget; the storefront's proof without JS.
      await requireCaptcha(config, req.body, input.email, clientAddress(req));
      await createLead(db, input, { businessEmail: config.BUSINESS_EMAIL });
      res.status(201).json({ received: true });
    }),
  );

  // Staff: the leads «Publica tu oferta» brought in (the sales whose money must go back: routes/refunds.ts).
  router.get(
    "/partner-leads/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const q = parseInput(PageQuerySchema, req.query);
      const { count, results } = await listLeads(db, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );

  return router;
}
