import { sql, type SQL } from "drizzle-orm";
import { commissionCents, lineVatCents, type CommissionRate } from "#rules/commission";
import { PAYABLE_WHEN, type PayableMoment } from "#rules/payable";
import { IS_PAID, PAID_COUPON_FACTS } from "#api/services/coupon-facts";

/**
 * The ledger behind statements: which coupons of an organisation have facts that moved since
 * their last statement, and the money each such line carries (docs/decisions/036-statement-ledger.md).
 *
 * A coupon's facts at the end of a period are read from the coupon itself (sold, refunded,
 * redeemed, expired by then); what earlier statements said of it is the sum of its lines. Where
 * the two differ, the new statement gets a line with the difference. So a refund or an undone
 * redemption after a statement is issued is a line of the next one, whatever code made it, and
 * an issued statement is never touched.
 */

/** What the database answers for each coupon whose facts moved (the cursor's rows). */
export type Candidate = {
  coupon_id: string;
  code: string;
  sale_id: string;
  sold_at: Date | string;
  /** The Madrid day it was sold: the day its commission rate is read for. */
  sold_day: string;
  offer_title: string;
  option_title: string;
  paid_unit_cents: number;
  valid_until: string | null;
  redeemed_at: Date | string | null;
  refunded_at: Date | string | null;
  now_sold: boolean;
  now_refunded: boolean;
  now_redeemed: boolean;
  now_expired: boolean;
  now_payable: boolean;
  was_sold: number;
  was_refunded: number;
  was_redeemed: number;
  was_expired: number;
  was_payable: number;
  was_gross: number | string;
  was_commission: number | string;
  /** The invoice that charged the commission now given back, if any. */
  was_invoice: string | null;
};

/** The SQL truth of PAYABLE_WHEN[moment], over a row with boolean sold, refunded, redeemed and expired. */
function payableSql(moment: PayableMoment, row: string): SQL {
  const any = PAYABLE_WHEN[moment].map((fact) => `${row}.${fact}`).join(" OR ");
  return sql.raw(`(${row}.sold AND NOT ${row}.refunded AND (${any}))`);
}

/**
 * The coupons of `organizationId` sold before `end` whose facts at `end` differ from what the
 * issued statements said, oldest sale first. Meant for a cursor: the stated sums are one pass
 * over the organisation's lines, the facts one index range of its coupons (coupons_organization_paid_idx).
 */
export function changedCouponsQuery(organizationId: string, end: Date, moment: PayableMoment): SQL {
  const at = sql`${end.toISOString()}::timestamptz`;
  return sql`
    WITH stated AS (
      SELECT l.coupon_id, sum(l.sold)::int AS sold, sum(l.refunded)::int AS refunded, sum(l.redeemed)::int AS redeemed,
             sum(l.expired)::int AS expired, sum(l.payable)::int AS payable,
             sum(l.gross_cents)::bigint AS gross, sum(l.commission_cents)::bigint AS commission,
             (array_agg(st.invoice_number ORDER BY st.period_end DESC) FILTER (WHERE l.payable = 1))[1] AS invoice
      FROM statement_lines l JOIN statements st ON st.id = l.statement_id AND st.issued_at IS NOT NULL
      WHERE l.organization_id = ${organizationId}
      GROUP BY l.coupon_id
    ), facts AS (
      SELECT c.id AS coupon_id, c.code, si.sale_id, c.paid_at AS sold_at,
             ((c.paid_at AT TIME ZONE 'Europe/Madrid')::date)::text AS sold_day,
             o.title AS offer_title, p.title AS option_title, c.paid_unit_cents, o.valid_until,
             CASE WHEN c.redeemed_at < ${at} THEN c.redeemed_at END AS redeemed_at,
             CASE WHEN c.refunded_at < ${at} THEN c.refunded_at END AS refunded_at
      FROM ${PAID_COUPON_FACTS}
      JOIN sale_items si ON si.id = c.sale_item_id
      JOIN offers o ON o.id = c.offer_id
      JOIN price_options p ON p.id = si.price_option_id
      WHERE c.organization_id = ${organizationId} AND ${IS_PAID} AND c.paid_at < ${at}
    ), facts_at_end AS (
      SELECT f.*, true AS sold, f.refunded_at IS NOT NULL AS refunded, f.redeemed_at IS NOT NULL AS redeemed,
             (f.redeemed_at IS NULL AND f.refunded_at IS NULL AND f.valid_until IS NOT NULL
              AND ((f.valid_until + 1)::timestamp AT TIME ZONE 'Europe/Madrid') <= ${at}) AS expired
      FROM facts f
    ), judged AS (
      SELECT n.*, ${payableSql(moment, "n")} AS payable FROM facts_at_end n
    )
    SELECT j.coupon_id, j.code, j.sale_id, j.sold_at, j.sold_day, j.offer_title, j.option_title, j.paid_unit_cents,
           j.valid_until::text AS valid_until, j.redeemed_at, j.refunded_at,
           j.sold AS now_sold, j.refunded AS now_refunded, j.redeemed AS now_redeemed, j.expired AS now_expired, j.payable AS now_payable,
           coalesce(st.sold, 0) AS was_sold, coalesce(st.refunded, 0) AS was_refunded, coalesce(st.redeemed, 0) AS was_redeemed,
           coalesce(st.expired, 0) AS was_expired, coalesce(st.payable, 0) AS was_payable,
           coalesce(st.gross, 0) AS was_gross, coalesce(st.commission, 0) AS was_commission, st.invoice AS was_invoice
    FROM judged j LEFT JOIN stated st ON st.coupon_id = j.coupon_id
    WHERE (j.sold::int, j.refunded::int, j.redeemed::int, j.expired::int, j.payable::int)
          IS DISTINCT FROM (coalesce(st.sold, 0), coalesce(st.refunded, 0), coalesce(st.redeemed, 0), coalesce(st.expired, 0), coalesce(st.payable, 0))
    ORDER BY j.sold_at, j.code`;
}

/** One line as it is written: the moves of the facts and the money. */
export type LineMoney = {
  sold: number;
  refunded: number;
  redeemed: number;
  expired: number;
  payable: number;
  rate: CommissionRate | null;
  gross_cents: number;
  commission_cents: number;
  vat_cents: number;
  net_cents: number;
  /** Which invoice the commission goes on: newly owed (C), given back (R), or none. */
  invoice: "invoice" | "rectifying" | null;
};

/** The running commission bases of a statement's two invoices, carried from line to line. */
export type Running = { invoiceBase: number; rectifyingBase: number; rectified: Set<string> };

export const newRunning = (): Running => ({ invoiceBase: 0, rectifyingBase: 0, rectified: new Set() });

/**
 * The line for a candidate. A coupon that becomes payable brings its gross and its commission at
 * `rate` (the rate of its sale day); one that stops being payable gives back exactly what its
 * statements charged. VAT is the step of the invoice's rounded running total (rules/commission.ts).
 */
export function lineFor(c: Candidate, rate: CommissionRate, running: Running): LineMoney {
  const step = Number(c.now_payable) - Number(c.was_payable);
  const moves = {
    sold: Number(c.now_sold) - Number(c.was_sold),
    refunded: Number(c.now_refunded) - Number(c.was_refunded),
    redeemed: Number(c.now_redeemed) - Number(c.was_redeemed),
    expired: Number(c.now_expired) - Number(c.was_expired),
    payable: step,
  };
  if (step === 0) return { ...moves, rate: null, gross_cents: 0, commission_cents: 0, vat_cents: 0, net_cents: 0, invoice: null };
  let gross: number;
  let commission: number;
  let vat: number;
  let invoice: LineMoney["invoice"];
  if (step > 0) {
    gross = Number(c.paid_unit_cents);
    commission = commissionCents(gross, rate);
    vat = lineVatCents(running.invoiceBase, commission);
    running.invoiceBase += commission;
    invoice = "invoice";
  } else {
    gross = -Number(c.was_gross);
    commission = -Number(c.was_commission);
    vat = lineVatCents(running.rectifyingBase, commission);
    running.rectifyingBase += commission;
    invoice = "rectifying";
    if (commission !== 0 && c.was_invoice) running.rectified.add(c.was_invoice);
  }
  return {
    ...moves,
    rate: step > 0 ? rate : null,
    gross_cents: gross,
    commission_cents: commission,
    vat_cents: vat,
    net_cents: gross - commission - vat,
    invoice,
  };
}

/** «Vendido · Canjeado», «Canje deshecho»: what a line's moves say, for the CSV and the PDF. */
export function factsLabel(moves: Pick<LineMoney, "sold" | "refunded" | "redeemed" | "expired" | "payable">): string {
  const words: string[] = [];
  const say = (move: number, done: string, undone: string) => {
    if (move > 0) words.push(done);
    else if (move < 0) words.push(undone);
  };
  say(moves.sold, "Vendido", "Venta anulada");
  say(moves.refunded, "Reembolsado", "Reembolso anulado");
  say(moves.redeemed, "Canjeado", "Canje deshecho");
  say(moves.expired, "Caducado sin canjear", "Validez ampliada");
  if (!words.length) words.push(moves.payable > 0 ? "Pasa a liquidarse" : moves.payable < 0 ? "Deja de liquidarse" : "—");
  return words.join(" · ");
}
