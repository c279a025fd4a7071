import { Router } from "express";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { handle, HttpError, idParam, pageAnswer, parseInput } from "#api/http";
import { PageQuerySchema } from "#contract/page";
import {
  CommissionRateInputSchema,
  IssueMonthInputSchema,
  IssueStatementInputSchema,
  PayableMomentInputSchema,
  PayoutAccountInputSchema,
  PayoutInputSchema,
  StatementListQuerySchema,
} from "#contract/statements";
import { partnerScope, requireStaffActor, type Identify } from "#api/services/access";
import {
  getStatement,
  issueMonthlyStatements,
  issueStatementFor,
  listStatements,
  markStatementPaid,
  partnerTerms,
  previewStatement,
  setCommissionRate,
  setPayableMoment,
  setPayoutAccount,
  statementCsv,
  statementFileName,
  statementLines,
  statementPdf,
} from "#api/services/statements";

/**
 * What a partner is owed: its terms and statements. A member reads its own organisation's (any
 * other is a 404) and keeps its IBAN; only staff set the commission and the payable moment, issue
 * statements and record their payouts (the services refuse the rest with a 403).
 */
export function statementsRouter({ db, config, identify }: { db: Database; config: Config; identify: Identify }): Router {
  const router = Router();
  const noStore = { "Cache-Control": "private, no-store" };

  router.get(
    "/organizations/:id/terms/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      res.set(noStore).json(await partnerTerms(db, scope, idParam(req)));
    }),
  );

  router.post(
    "/organizations/:id/commission/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const input = parseInput(CommissionRateInputSchema, req.body);
      res.set(noStore).json(await setCommissionRate(db, scope, idParam(req), input));
    }),
  );

  router.post(
    "/organizations/:id/payable_on/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const { payable_on } = parseInput(PayableMomentInputSchema, req.body);
      res.set(noStore).json(await setPayableMoment(db, scope, idParam(req), payable_on));
    }),
  );

  router.put(
    "/organizations/:id/payout_account/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "organization.write");
      const { iban } = parseInput(PayoutAccountInputSchema, req.body);
      res.set(noStore).json(await setPayoutAccount(db, scope, idParam(req), iban));
    }),
  );

  /** «Pendiente de liquidar»: what a statement issued now would say. */
  router.get(
    "/organizations/:id/statement_preview/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      res.set(noStore).json(await previewStatement(db, scope, idParam(req)));
    }),
  );

  router.get(
    "/statements/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const filter = parseInput(StatementListQuerySchema, req.query);
      const q = parseInput(PageQuerySchema, req.query);
      const { count, results } = await listStatements(db, scope, filter, { page: q.page, pageSize: q.page_size });
      res.set(noStore).json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );

  /** Staff: one organisation's statement now, for a range of days. The same range again answers the same statement. */
  router.post(
    "/statements/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const input = parseInput(IssueStatementInputSchema, req.body);
      const issued = await issueStatementFor(db, scope, input, { shop: config.shopLegal });
      if (!issued) throw new HttpError(409, "No hay nada que liquidar en ese periodo: ningún cupón cambió.");
      res
        .status(issued.created ? 201 : 200)
        .set(noStore)
        .json(await getStatement(db, scope, issued.statement.id));
    }),
  );

  /** Staff: a month's statements for every organisation (what the monthly job does), run again safely. */
  router.post(
    "/statements/month/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const { month } = parseInput(IssueMonthInputSchema, req.body);
      const run = await issueMonthlyStatements(db, month, { shop: config.shopLegal });
      if (run.refused) throw new HttpError(503, run.refused);
      res.set(noStore).json(run);
    }),
  );

  router.get(
    "/statements/:id/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      res.set(noStore).json(await getStatement(db, scope, idParam(req)));
    }),
  );

  router.get(
    "/statements/:id/lines/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const q = parseInput(PageQuerySchema, req.query);
      const id = idParam(req);
      const { count, results } = await statementLines(db, scope, id, { page: q.page, pageSize: q.page_size });
      res.set(noStore).json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );

  router.get(
    "/statements/:id/statement.csv",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const id = idParam(req);
      const statement = await getStatement(db, scope, id);
      res.set(noStore);
      res.set("Content-Disposition", `attachment; filename="${statementFileName(statement, "csv")}"`);
      res.type("text/csv; charset=utf-8");
      // Streamed a batch of lines at a time: a statement of any size is never in memory whole.
      for await (const chunk of statementCsv(db, scope, id)) res.write(chunk);
      res.end();
    }),
  );

  router.get(
    "/statements/:id/statement.pdf",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const id = idParam(req);
      const statement = await getStatement(db, scope, id);
      const pdf = await statementPdf(db, scope, id);
      res.set(noStore);
      res.set("Content-Disposition", `attachment; filename="${statementFileName(statement, "pdf")}"`);
      res.type("application/pdf").send(Buffer.from(pdf));
    }),
  );

  /** Staff record the transfer that paid it; the same transfer again is a no-op. */
  router.post(
    "/statements/:id/payout/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify, "statements.read");
      const input = parseInput(PayoutInputSchema, req.body);
      res.set(noStore).json(await markStatementPaid(db, scope, idParam(req), input));
    }),
  );

  return router;
}
