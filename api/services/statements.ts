/**
 * What a partner is owed (docs/portals.md, «Liquidaciones»): the services the partner and staff
 * routes call, and the monthly job. Each takes the caller's Scope (api/services/access.ts):
 * staff see and do everything; an organisation's members read its statements and terms and keep
 * its legal identity and IBAN; only staff set commission and the payable moment, issue, and pay.
 */
export {
  partnerTerms,
  setCommissionRate,
  setLegalIdentity,
  setPayableMoment,
  setPayoutAccount,
  rateHistory,
  rateOn,
  rateLabel,
} from "./statements/terms";
export { issueMonthlyStatements, issueStatement, issueStatementFor, type Issued } from "./statements/issue";
export {
  getStatement,
  listStatements,
  previewStatement,
  statementLineBatches,
  statementLines,
  type StatementFilter,
} from "./statements/read";
export { markStatementPaid } from "./statements/payouts";
export { statementCsv, statementFileName } from "./statements/csv";
export { statementPdf } from "./statements/pdf";
