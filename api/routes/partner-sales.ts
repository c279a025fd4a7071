import { Router } from "express";
import type { Config } from "#platform/config.server";
import { requireCaptcha } from "#api/captcha";
import { HONEYPOT_FIELD } from "#contract/partner";
import { partnerSalesRoutes } from "#contract/partner-sales";
import type { Database } from "#api/db/client";
import { idParam, pageAnswer } from "#api/http";
import { on } from "#api/route";
import { clientAddress, limits, rateLimit } from "#api/rate-limit";
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
import { madridDate } from "#rules/dates";

/** The routes of contract/partner-sales.ts. */
export function partnerSalesRouter({ db, config, identify }: { db: Database; config: Config; identify: Identify }): Router {
  const router = Router();

  on(router, partnerSalesRoutes.verifyCoupon, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "till.redeem");
    res.set("Cache-Control", "no-store");
    res.json(await verifyCoupon(db, scope, body.code));
  });

  on(router, partnerSalesRoutes.redeem, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "till.redeem");
    res.json(await redeemCoupon(db, scope, idParam(req)));
  });

  on(router, partnerSalesRoutes.undoRedemption, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "till.undo");
    res.json(await undoRedemption(db, scope, idParam(req)));
  });

  /** «Hoy: N canjeados»: today's redemptions at this partner's tills. */
  on(router, partnerSalesRoutes.redeemedToday, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "till.today");
    res.set("Cache-Control", "private, no-store");
    res.json(await redeemedToday(db, scope));
  });

  /** The code is lost: the buyer's coupons still to redeem, by their name or email. */
  on(router, partnerSalesRoutes.findCoupons, async (req, res, { query }) => {
    const scope = await partnerScope(db, req, identify, "till.search");
    res.set("Cache-Control", "private, no-store");
    res.json({ results: await findUnredeemed(db, scope, query.q) });
  });

  /** The partner's sales: one row per coupon of its offers, as JSON or a CSV file. */
  on(router, partnerSalesRoutes.sales, async (req, res, { query: q }) => {
    const scope = await partnerScope(db, req, identify, "sales.read");
    res.set("Cache-Control", "private, no-store");
    if (q.format === "csv") {
      const day = madridDate(new Date());
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
  });

  /** «Ventas» per day over the same filter: the page's chart of sales and redemptions. */
  on(router, partnerSalesRoutes.salesPerDay, async (req, res, { query }) => {
    const scope = await partnerScope(db, req, identify, "sales.read");
    res.set("Cache-Control", "private, no-store");
    res.json({ results: await salesPerDay(db, scope, query) });
  });

  // Per address and per applicant: a form that sends two mails is worth abusing otherwise.
  const tooMany = "Has enviado varias solicitudes seguidas. Inténtalo de nuevo más tarde.";
  on(
    router,
    partnerSalesRoutes.becomePartner,
    // The address's limit counts before the body is read, as it counts a bad body too.
    { before: [rateLimit({ name: "become-partner", windowMs: 3600 * 1000, max: 10, message: tooMany })] },
    async (req, res, { body: input }) => {
      await limits.consume(`become-partner:email:${input.email}`, { points: 3, durationSec: 24 * 3600, message: tooMany });
      if (input[HONEYPOT_FIELD]) {
        // A bot: answered like a person so it does not learn to skip the field; nothing is stored or sent.
        res.status(201).json({ received: true });
        return;
      }
      // Turnstile's token when the visitor's browser ran the widget; the storefront's proof without JS.
      await requireCaptcha(config, req.body, input.email, clientAddress(req));
      await createLead(db, input, { businessEmail: config.BUSINESS_EMAIL });
      res.status(201).json({ received: true });
    },
  );

  // Staff: the leads «Publica tu oferta» brought in (the sales whose money must go back: routes/refunds.ts).
  on(router, partnerSalesRoutes.leads, async (req, res, { query: q }) => {
    await requireStaffActor(req, identify);
    const { count, results } = await listLeads(db, { page: q.page, pageSize: q.page_size });
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });

  return router;
}
