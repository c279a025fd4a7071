import { Router } from "express";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { HttpError, idParam, pageAnswer } from "#api/http";
import { on } from "#api/route";
import { statementsRoutes } from "#contract/statements";
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
 * statements and record their payouts (the services refuse the rest with a 403). The routes of
 * contract/statements.ts.
 */
export function statementsRouter({ db, config, identify }: { db: Database; config: Config; identify: Identify }): Router {
  const router = Router();
  const noStore = { "Cache-Control": "private, no-store" };

  on(router, statementsRoutes.terms, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await partnerTerms(db, scope, idParam(req)));
  });

  on(router, statementsRoutes.setCommission, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await setCommissionRate(db, scope, idParam(req), body));
  });

  on(router, statementsRoutes.setPayableOn, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await setPayableMoment(db, scope, idParam(req), body.payable_on));
  });

  on(router, statementsRoutes.setIban, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "organization.write");
    res.set(noStore).json(await setPayoutAccount(db, scope, idParam(req), body.iban));
  });

  /** «Pendiente de liquidar»: what a statement issued now would say. */
  on(router, statementsRoutes.preview, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await previewStatement(db, scope, idParam(req)));
  });

  on(router, statementsRoutes.statements, async (req, res, { query: q }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    const { count, results } = await listStatements(db, scope, q, { page: q.page, pageSize: q.page_size });
    res.set(noStore).json(pageAnswer(req, q.page, q.page_size, count, results));
  });

  /** Staff: one organisation's statement now, for a range of days. The same range again answers the same statement. */
  on(router, statementsRoutes.issueStatement, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    const issued = await issueStatementFor(db, scope, body, { shop: config.shopLegal });
    if (!issued) throw new HttpError(409, "No hay nada que liquidar en ese periodo: ningún cupón cambió.");
    res
      .status(issued.created ? 201 : 200)
      .set(noStore)
      .json(await getStatement(db, scope, issued.statement.id));
  });

  /** Staff: a month's statements for every organisation (what the monthly job does), run again safely. */
  on(router, statementsRoutes.issueMonth, async (req, res, { body }) => {
    await requireStaffActor(req, identify);
    const run = await issueMonthlyStatements(db, body.month, { shop: config.shopLegal });
    if (run.refused) throw new HttpError(503, run.refused);
    res.set(noStore).json(run);
  });

  on(router, statementsRoutes.statement, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await getStatement(db, scope, idParam(req)));
  });

  on(router, statementsRoutes.statementLines, async (req, res, { query: q }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    const id = idParam(req);
    const { count, results } = await statementLines(db, scope, id, { page: q.page, pageSize: q.page_size });
    res.set(noStore).json(pageAnswer(req, q.page, q.page_size, count, results));
  });

  on(router, statementsRoutes.statementCsv, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    const id = idParam(req);
    const statement = await getStatement(db, scope, id);
    res.set(noStore);
    res.set("Content-Disposition", `attachment; filename="${statementFileName(statement, "csv")}"`);
    res.type("text/csv; charset=utf-8");
    // Streamed a batch of lines at a time: a statement of any size is never in memory whole.
    for await (const chunk of statementCsv(db, scope, id)) res.write(chunk);
    res.end();
  });

  on(router, statementsRoutes.statementPdf, async (req, res) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    const id = idParam(req);
    const statement = await getStatement(db, scope, id);
    const pdf = await statementPdf(db, scope, id);
    res.set(noStore);
    res.set("Content-Disposition", `attachment; filename="${statementFileName(statement, "pdf")}"`);
    res.type("application/pdf").send(Buffer.from(pdf));
  });

  /** Staff record the transfer that paid it; the same transfer again is a no-op. */
  on(router, statementsRoutes.payStatement, async (req, res, { body }) => {
    const scope = await partnerScope(db, req, identify, "statements.read");
    res.set(noStore).json(await markStatementPaid(db, scope, idParam(req), body));
  });

  return router;
}
