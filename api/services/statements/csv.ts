import type { StatementLineView, StatementView } from "#contract/statements";
import { formatShortDateTime } from "#rules/dates";
import { formatCents, toCents } from "#rules/prices";
import type { Executor } from "#api/db/client";
import type { Scope } from "#api/services/access";
import { csvCell } from "#api/services/coupons";
import { getStatement, statementLineBatches } from "./read";

/** «1234,50», «-12,00»: an amount as Spanish Excel reads a number (no «€», written by us, never a formula). */
const amount = (value: string) => formatCents(toCents(value)).replace(/\s€$/u, "");

const HEADER = [
  "Liquidación",
  "Línea",
  "Fecha de venta",
  "Venta",
  "Cupón",
  "Oferta",
  "Opción",
  "Movimiento",
  "Vendido",
  "Reembolsado",
  "Canjeado",
  "Caducado",
  "Liquidable",
  "Canjeado el",
  "Reembolsado el",
  "Comisión aplicada",
  "Importe bruto",
  "Comisión",
  "IVA comisión",
  "Neto",
];

function line(statement: StatementView, l: StatementLineView): string {
  const text = [
    statement.number,
    String(l.line_no),
    formatShortDateTime(l.sold_at),
    l.sale_id,
    l.coupon.code,
    l.offer_title,
    l.option_title,
    l.facts_label,
  ].map(csvCell);
  const facts = [l.facts.sold, l.facts.refunded, l.facts.redeemed, l.facts.expired, l.facts.payable].map(String);
  const when = [
    l.redeemed_at ? formatShortDateTime(l.redeemed_at) : "",
    l.refunded_at ? formatShortDateTime(l.refunded_at) : "",
    l.rate ?? "",
  ].map(csvCell);
  const money = [l.gross, l.commission, l.vat, l.net].map(amount);
  return [...text, ...facts, ...when, ...money].join(";");
}

/**
 * A statement as CSV, for the partner's bookkeeping: one row per line, «;» and decimal commas as
 * Spanish Excel expects, a BOM for the accents, and a last row with the totals. Written a batch
 * of lines at a time, so a statement of any size streams out.
 */
export async function* statementCsv(db: Executor, scope: Scope, id: string): AsyncGenerator<string> {
  const statement = await getStatement(db, scope, id);
  yield `\uFEFF${HEADER.join(";")}\r\n`;
  for await (const batch of statementLineBatches(db, scope, id)) yield batch.map((l) => `${line(statement, l)}\r\n`).join("");
  const c = statement.counts;
  const totals = [
    csvCell(statement.number),
    "",
    "",
    "",
    "",
    "Total",
    "",
    "",
    String(c.sold),
    String(c.refunded),
    String(c.redeemed),
    String(c.expired),
    "",
    "",
    "",
    "",
    amount(statement.gross),
    amount(statement.commission),
    amount(statement.vat),
    amount(statement.net),
  ];
  yield `${totals.join(";")}\r\n`;
}

/** «liquidacion-L-2026-000123.csv». */
export const statementFileName = (statement: { number: string }, ext: "csv" | "pdf") => `liquidacion-${statement.number}.${ext}`;
