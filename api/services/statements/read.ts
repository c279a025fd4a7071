import { sql, type SQL } from "drizzle-orm";
import type { PayoutState, StatementLineView, StatementPreview, StatementSummary, StatementView } from "#contract/statements";
import { formatPercentBp } from "#rules/commission";
import { maskIban } from "#rules/iban";
import { PAYABLE_MOMENT_LABELS, PAYABLE_MOMENT_TERMS, type PayableMoment } from "#rules/payable";
import { formatCents, fromCents } from "#rules/prices";
import { periodLabel } from "#rules/statements";
import { query, type Database, type Executor } from "#api/db/client";
import type { ShopParty, StatementParty } from "#api/db/schema";
import { notFound } from "#api/http";
import { inScope, type Scope } from "#api/services/access";
import { changedCouponsQuery, factsLabel, lineFor, newRunning, type Candidate } from "./ledger";
import { organizationFor, rateHistory, rateOn } from "./terms";

/** A statement row as the list and the detail read it (snake_case, straight from SQL). */
type Row = {
  id: string;
  organization_id: string;
  organization_name: string;
  number: string;
  period_start: Date | string;
  period_end: Date | string;
  issued_at: Date | string;
  payable_on: PayableMoment;
  partner: StatementParty;
  shop: ShopParty;
  vat_rate_bp: number;
  line_count: number;
  sold: number;
  refunded: number;
  redeemed: number;
  expired: number;
  gross_cents: number | string;
  commission_cents: number | string;
  vat_cents: number | string;
  net_cents: number | string;
  invoice_number: string | null;
  invoice_base_cents: number | string;
  invoice_vat_cents: number | string;
  rectifying_number: string | null;
  rectifying_base_cents: number | string;
  rectifying_vat_cents: number | string;
  rectified_invoices: string[] | string;
  carried_cents: number | string;
  payable_cents: number | string;
  paid_on: string | null;
  transfer_reference: string | null;
  carried_into: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();
const money = (cents: number | string) => fromCents(Number(cents));

const SELECT_STATEMENTS = sql`
  SELECT st.*, org.name AS organization_name, p.paid_on::text AS paid_on, p.transfer_reference, nx.number AS carried_into
  FROM statements st
  JOIN organizations org ON org.id = st.organization_id
  LEFT JOIN statement_payouts p ON p.statement_id = st.id
  LEFT JOIN statements nx ON nx.carried_from = st.id AND nx.issued_at IS NOT NULL`;

/** Paid, pending, or why there is nothing to pay: a negative balance carried into a later statement or waiting for one. */
function payoutOf(r: Row): StatementSummary["payout"] {
  const payable = Number(r.payable_cents);
  const of = (state: PayoutState, label: string) => ({ state, label, paid_on: r.paid_on, transfer_reference: r.transfer_reference });
  if (payable > 0) return r.paid_on ? of("paid", "Pagada") : of("pending", "Pendiente de pago");
  if (payable < 0) return r.carried_into ? of("carried", `Compensada en ${r.carried_into}`) : of("to_offset", "A compensar en la próxima");
  return of("nothing", "Sin importe");
}

function summaryOf(r: Row): StatementSummary {
  return {
    uuid: r.id,
    number: r.number,
    organization: { uuid: r.organization_id, name: r.organization_name },
    period_start: iso(r.period_start),
    period_end: iso(r.period_end),
    period_label: periodLabel(new Date(r.period_start), new Date(r.period_end)),
    issued_at: iso(r.issued_at),
    counts: { sold: r.sold, refunded: r.refunded, redeemed: r.redeemed, expired: r.expired },
    line_count: r.line_count,
    gross: money(r.gross_cents),
    commission: money(r.commission_cents),
    vat: money(r.vat_cents),
    net: money(r.net_cents),
    carried: money(r.carried_cents),
    payable: money(r.payable_cents),
    invoice_number: r.invoice_number,
    rectifying_number: r.rectifying_number,
    payout: payoutOf(r),
  };
}

/** node-postgres reads text[] as an array; a JSON-speaking driver may give its literal («{a,b}»). */
const textArray = (v: string[] | string): string[] =>
  Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, "")
        .split(",")
        .filter(Boolean);

function viewOf(r: Row, scope: Scope): StatementView {
  const invoice = (number: string | null, base: number | string, vat: number | string) =>
    number ? { number, base: money(base), vat: money(vat), total: money(Number(base) + Number(vat)) } : null;
  const rectifying = invoice(r.rectifying_number, r.rectifying_base_cents, r.rectifying_vat_cents);
  return {
    ...summaryOf(r),
    payable_on: r.payable_on,
    payable_on_label: PAYABLE_MOMENT_LABELS[r.payable_on],
    payable_on_terms: PAYABLE_MOMENT_TERMS[r.payable_on],
    vat_rate_bp: r.vat_rate_bp,
    partner: {
      name: r.partner.legal_name,
      tax_id: r.partner.tax_id,
      address: r.partner.address,
      iban_masked: r.partner.iban ? maskIban(r.partner.iban) : null,
    },
    shop: { name: r.shop.name, tax_id: r.shop.tax_id, address: r.shop.address },
    invoice: invoice(r.invoice_number, r.invoice_base_cents, r.invoice_vat_cents),
    rectifying_invoice: rectifying ? { ...rectifying, rectifies: textArray(r.rectified_invoices) } : null,
    payout_iban: scope.staff ? r.partner.iban : null,
  };
}

export type StatementFilter = { organization?: string | null; state?: "pending" | null };

/** A page of issued statements the caller may see, newest period first; staff may ask for the unpaid ones only. */
export async function listStatements(
  db: Executor,
  scope: Scope,
  filter: StatementFilter,
  page: { page: number; pageSize: number },
): Promise<{ count: number; results: StatementSummary[] }> {
  const parts: SQL[] = [sql`st.issued_at IS NOT NULL`, inScope(scope, sql`st.organization_id`)];
  if (filter.organization) parts.push(sql`st.organization_id = ${filter.organization}`);
  if (filter.state === "pending") parts.push(sql`st.payable_cents > 0 AND p.statement_id IS NULL`);
  const where = sql.join(parts, sql` AND `);
  const [[count], rows] = await Promise.all([
    query<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM statements st LEFT JOIN statement_payouts p ON p.statement_id = st.id WHERE ${where}`,
    ),
    query<Row>(
      db,
      sql`${SELECT_STATEMENTS} WHERE ${where} ORDER BY st.period_end DESC, st.number DESC
          LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
    ),
  ]);
  return { count: Number(count.n), results: rows.map(summaryOf) };
}

async function statementRow(db: Executor, scope: Scope, id: string): Promise<Row> {
  const [row] = await query<Row>(
    db,
    sql`${SELECT_STATEMENTS} WHERE st.id = ${id} AND st.issued_at IS NOT NULL AND ${inScope(scope, sql`st.organization_id`)}`,
  );
  if (!row) throw notFound("Liquidación no encontrada.");
  return row;
}

/** One issued statement: its totals, both parties, its invoices and how it was paid. */
export async function getStatement(db: Executor, scope: Scope, id: string): Promise<StatementView> {
  return viewOf(await statementRow(db, scope, id), scope);
}

type LineRow = {
  line_no: number;
  coupon_id: string;
  code: string;
  sale_id: string;
  sold_at: Date | string;
  offer_title: string;
  option_title: string;
  redeemed_at: Date | string | null;
  refunded_at: Date | string | null;
  sold: number;
  refunded: number;
  redeemed: number;
  expired: number;
  payable: number;
  percent_bp: number | null;
  fixed_cents: number | null;
  gross_cents: number;
  commission_cents: number;
  vat_cents: number;
  net_cents: number;
};

function lineView(r: LineRow): StatementLineView {
  const facts = { sold: r.sold, refunded: r.refunded, redeemed: r.redeemed, expired: r.expired, payable: r.payable };
  const rate =
    r.percent_bp === null
      ? null
      : r.fixed_cents
        ? `${formatPercentBp(r.percent_bp)} + ${formatCents(r.fixed_cents)}`
        : formatPercentBp(r.percent_bp);
  return {
    line_no: r.line_no,
    coupon: { uuid: r.coupon_id, code: r.code },
    sale_id: r.sale_id,
    sold_at: iso(r.sold_at),
    offer_title: r.offer_title,
    option_title: r.option_title,
    facts,
    facts_label: factsLabel(facts),
    redeemed_at: r.redeemed_at === null ? null : iso(r.redeemed_at),
    refunded_at: r.refunded_at === null ? null : iso(r.refunded_at),
    rate,
    gross: money(r.gross_cents),
    commission: money(r.commission_cents),
    vat: money(r.vat_cents),
    net: money(r.net_cents),
  };
}

const lineRows = (db: Executor, id: string, from: number, limit: number) =>
  query<LineRow>(db, sql`SELECT * FROM statement_lines WHERE statement_id = ${id} AND line_no >= ${from} ORDER BY line_no LIMIT ${limit}`);

/** A page of a statement's lines, in statement order. */
export async function statementLines(db: Executor, scope: Scope, id: string, page: { page: number; pageSize: number }) {
  const row = await statementRow(db, scope, id);
  const rows = await lineRows(db, id, (page.page - 1) * page.pageSize + 1, page.pageSize);
  return { count: row.line_count, results: rows.map(lineView) };
}

/** Every line of a statement the caller may see, `batch` at a time by line number (the CSV and the PDF). */
export async function* statementLineBatches(db: Executor, scope: Scope, id: string, batch = 1000): AsyncGenerator<StatementLineView[]> {
  await statementRow(db, scope, id);
  for (let from = 1; ; from += batch) {
    const rows = await lineRows(db, id, from, batch);
    if (rows.length === 0) return;
    yield rows.map(lineView);
  }
}

/**
 * What a statement issued now would say (nothing is written): the organisation's «pendiente de
 * liquidar» so far, by the same ledger the statements use. On PGlite it holds the database for as
 * long as it reads, like the statement itself.
 */
export async function previewStatement(db: Database, scope: Scope, organizationId: string, now = new Date()): Promise<StatementPreview> {
  const org = await organizationFor(db, scope, organizationId);
  return db.transaction(async (tx) => {
    const rates = await rateHistory(tx, organizationId);
    const running = newRunning();
    const t = { lines: 0, sold: 0, refunded: 0, redeemed: 0, expired: 0, gross: 0, commission: 0, vat: 0 };
    await tx.execute(sql`DECLARE statement_preview NO SCROLL CURSOR FOR ${changedCouponsQuery(organizationId, now, org.payableOn)}`);
    for (;;) {
      const batch = await query<Candidate>(tx, sql.raw(`FETCH 2000 FROM statement_preview`));
      if (batch.length === 0) break;
      for (const c of batch) {
        const m = lineFor(c, rateOn(rates, c.sold_day).rate, running);
        t.lines++;
        t.sold += m.sold;
        t.refunded += m.refunded;
        t.redeemed += m.redeemed;
        t.expired += m.expired;
        t.gross += m.gross_cents;
        t.commission += m.commission_cents;
        t.vat += m.vat_cents;
      }
    }
    await tx.execute(sql`CLOSE statement_preview`);
    return {
      until: now.toISOString(),
      line_count: t.lines,
      counts: { sold: t.sold, refunded: t.refunded, redeemed: t.redeemed, expired: t.expired },
      gross: money(t.gross),
      commission: money(t.commission),
      vat: money(t.vat),
      net: money(t.gross - t.commission - t.vat),
    };
  });
}
