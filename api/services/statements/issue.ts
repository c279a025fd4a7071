import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { MonthlyRun } from "#contract/statements";
import { VAT_RATE_BP } from "#rules/commission";
import {
  documentNumber,
  INVOICE_SERIES,
  madridDayStart,
  monthPeriod,
  nextDay,
  RECTIFYING_SERIES,
  STATEMENT_SERIES,
  type DocumentSeries,
} from "#rules/statements";
import { shopLegalFromEnv, type ShopLegal } from "#platform/config.server";
import { logger } from "#platform/logger.server";
import { query, type Database, type Transaction } from "#api/db/client";
import { organizations, statements } from "#api/db/schema";
import { HttpError } from "#api/http";
import { forbidden, type Scope } from "#api/services/access";
import { changedCouponsQuery, lineFor, newRunning, type Candidate, type LineMoney } from "./ledger";
import { currentIban, rateHistory, rateOn } from "./terms";
import { madridDate } from "#rules/dates";

/** Rows read from the cursor and written per statement, at a time: the memory a statement needs. */
const BATCH = 2000;

export type Issued = { statement: typeof statements.$inferSelect; created: boolean };

type Period = { organizationId: string; start: Date; end: Date };

/** The next number of a series in a year, in the issuing transaction: correlative, no gaps. */
async function nextNumber(tx: Transaction, series: DocumentSeries, year: number): Promise<string> {
  const [row] = await query<{ last: number }>(
    tx,
    sql`INSERT INTO document_numbers (series, year, last) VALUES (${series}, ${year}, 1)
        ON CONFLICT (series, year) DO UPDATE SET last = document_numbers.last + 1 RETURNING last`,
  );
  return documentNumber(series, year, Number(row.last));
}

/** Writes a batch of lines in one statement, as arrays (one parameter per column, whatever the batch). */
async function writeLines(tx: Transaction, statementId: string, organizationId: string, first: number, rows: [Candidate, LineMoney][]) {
  const col = <T>(pick: (c: Candidate, m: LineMoney) => T) => sql.param(rows.map(([c, m]) => pick(c, m)));
  const at = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  await tx.execute(sql`
    INSERT INTO statement_lines (statement_id, line_no, organization_id, coupon_id, sale_id, code, sold_at, offer_title, option_title,
      redeemed_at, refunded_at, valid_until, sold, refunded, redeemed, expired, payable, percent_bp, fixed_cents,
      gross_cents, commission_cents, vat_cents, net_cents)
    SELECT ${statementId}::uuid, ${first}::int + ord::int - 1, ${organizationId}::uuid, coupon_id, sale_id, code, sold_at, offer_title, option_title,
           redeemed_at, refunded_at, valid_until, sold, refunded, redeemed, expired, payable, percent_bp, fixed_cents,
           gross_cents, commission_cents, vat_cents, net_cents
    FROM unnest(
      ${col((c) => c.coupon_id)}::uuid[], ${col((c) => c.sale_id)}::uuid[], ${col((c) => c.code)}::text[],
      ${col((c) => at(c.sold_at))}::timestamptz[], ${col((c) => c.offer_title)}::text[], ${col((c) => c.option_title)}::text[],
      ${col((c) => at(c.redeemed_at))}::timestamptz[], ${col((c) => at(c.refunded_at))}::timestamptz[], ${col((c) => c.valid_until)}::date[],
      ${col((_, m) => m.sold)}::smallint[], ${col((_, m) => m.refunded)}::smallint[], ${col((_, m) => m.redeemed)}::smallint[],
      ${col((_, m) => m.expired)}::smallint[], ${col((_, m) => m.payable)}::smallint[],
      ${col((_, m) => m.rate?.percent_bp ?? null)}::int[], ${col((_, m) => m.rate?.fixed_cents ?? null)}::int[],
      ${col((_, m) => m.gross_cents)}::int[], ${col((_, m) => m.commission_cents)}::int[], ${col((_, m) => m.vat_cents)}::int[],
      ${col((_, m) => m.net_cents)}::int[]
    ) WITH ORDINALITY AS l(coupon_id, sale_id, code, sold_at, offer_title, option_title, redeemed_at, refunded_at, valid_until,
                           sold, refunded, redeemed, expired, payable, percent_bp, fixed_cents, gross_cents, commission_cents, vat_cents, net_cents, ord)`);
}

/**
 * Issues the organisation's statement for [start, end): every coupon sold before `end` whose
 * facts moved since its last statement gets a line (so a fact that reached the database after an
 * earlier statement was issued is stated now), then the statement is numbered, with its
 * commission invoice and rectifying invoice when it has them, and sealed (the database refuses
 * any later change). Idempotent: the same organisation and period again answer the statement
 * already issued. Answers null when nothing moved (no statement is made).
 *
 * One transaction per statement, holding the organisation's row: two workers issuing the same
 * statement queue there, and the second finds the first's. Lines are read through a cursor and
 * written BATCH at a time, so memory does not grow with the organisation's coupons.
 */
export async function issueStatement(
  db: Database,
  period: Period,
  { shop, now = new Date() }: { shop: ShopLegal; now?: Date },
): Promise<Issued | null> {
  const { organizationId, start, end } = period;
  if (!(end > start)) throw new HttpError(400, "El periodo termina antes de empezar.");
  if (end > now) throw new HttpError(409, "Ese periodo aún no ha terminado: se liquida cuando acaba.");
  return db.transaction(async (tx) => {
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for("update");
    if (!org) throw new HttpError(404, "Empresa no encontrada.");
    const [same] = await tx
      .select()
      .from(statements)
      .where(and(eq(statements.organizationId, organizationId), eq(statements.periodStart, start), eq(statements.periodEnd, end)));
    if (same?.issuedAt) return { statement: same, created: false };
    const [last] = await tx
      .select()
      .from(statements)
      .where(and(eq(statements.organizationId, organizationId), isNotNull(statements.issuedAt)))
      .orderBy(desc(statements.periodEnd))
      .limit(1);
    if (last && start < last.periodEnd) {
      throw new HttpError(
        409,
        `${org.name} ya tiene una liquidación (${last.number}) hasta el ${madridDate(new Date(last.periodEnd.getTime() - 1))}: la siguiente empieza el día después.`,
      );
    }
    const [rates, account] = await Promise.all([rateHistory(tx, organizationId), currentIban(tx, organizationId)]);
    const [draft] = await tx
      .insert(statements)
      .values({
        organizationId,
        periodStart: start,
        periodEnd: end,
        payableOn: org.payableOn,
        partner: {
          name: org.name,
          legal_name: org.legalName ?? org.name,
          tax_id: org.taxId,
          address: org.address,
          iban: account?.iban ?? null,
        },
        shop,
        vatRateBp: VAT_RATE_BP,
      })
      .returning();

    const totals = {
      lines: 0,
      sold: 0,
      refunded: 0,
      redeemed: 0,
      expired: 0,
      gross: 0,
      commission: 0,
      vat: 0,
      invoiceVat: 0,
      rectifyingVat: 0,
    };
    const running = newRunning();
    await tx.execute(sql`DECLARE statement_candidates NO SCROLL CURSOR FOR ${changedCouponsQuery(organizationId, end, org.payableOn)}`);
    for (;;) {
      const batch = await query<Candidate>(tx, sql.raw(`FETCH ${BATCH} FROM statement_candidates`));
      if (batch.length === 0) break;
      const rows = batch.map((c): [Candidate, LineMoney] => [c, lineFor(c, rateOn(rates, c.sold_day).rate, running)]);
      await writeLines(tx, draft.id, organizationId, totals.lines + 1, rows);
      for (const [, m] of rows) {
        totals.sold += m.sold;
        totals.refunded += m.refunded;
        totals.redeemed += m.redeemed;
        totals.expired += m.expired;
        totals.gross += m.gross_cents;
        totals.commission += m.commission_cents;
        totals.vat += m.vat_cents;
        if (m.invoice === "invoice") totals.invoiceVat += m.vat_cents;
        if (m.invoice === "rectifying") totals.rectifyingVat += m.vat_cents;
      }
      totals.lines += rows.length;
    }
    await tx.execute(sql`CLOSE statement_candidates`);
    if (totals.lines === 0) {
      await tx.delete(statements).where(eq(statements.id, draft.id));
      return null;
    }

    const year = Number(madridDate(now).slice(0, 4));
    const net = totals.gross - totals.commission - totals.vat;
    const carried = last && last.payableCents < 0 ? last.payableCents : 0;
    const [statement] = await tx
      .update(statements)
      .set({
        number: await nextNumber(tx, STATEMENT_SERIES, year),
        issuedAt: now,
        lineCount: totals.lines,
        sold: totals.sold,
        refunded: totals.refunded,
        redeemed: totals.redeemed,
        expired: totals.expired,
        grossCents: totals.gross,
        commissionCents: totals.commission,
        vatCents: totals.vat,
        netCents: net,
        invoiceNumber: running.invoiceBase !== 0 ? await nextNumber(tx, INVOICE_SERIES, year) : null,
        invoiceBaseCents: running.invoiceBase,
        invoiceVatCents: totals.invoiceVat,
        rectifyingNumber: running.rectifyingBase !== 0 ? await nextNumber(tx, RECTIFYING_SERIES, year) : null,
        rectifyingBaseCents: running.rectifyingBase,
        rectifyingVatCents: totals.rectifyingVat,
        rectifiedInvoices: [...running.rectified].sort(),
        carriedFrom: carried ? last!.id : null,
        carriedCents: carried,
        payableCents: net + carried,
      })
      .where(eq(statements.id, draft.id))
      .returning();
    return { statement, created: true };
  });
}

/**
 * Staff issue a statement on demand, for whole Madrid days (from and to both included): when a
 * partner leaves, or is paid early. It starts where the organisation's last statement ended; the
 * next monthly statement starts where this one ends.
 */
export async function issueStatementFor(
  db: Database,
  scope: Scope,
  input: { organization: string; date_from: string; date_to: string },
  { shop, now = new Date() }: { shop: ShopLegal | null; now?: Date },
): Promise<Issued | null> {
  if (!scope.staff) throw forbidden();
  if (!shop) throw new HttpError(503, "Faltan los datos fiscales de la tienda (SHOP_LEGAL_NAME, SHOP_TAX_ID, SHOP_ADDRESS).");
  const period = {
    organizationId: input.organization,
    start: madridDayStart(input.date_from),
    end: madridDayStart(nextDay(input.date_to)),
  };
  return issueStatement(db, period, { shop, now });
}

/**
 * The month's statements for every organisation (the worker schedules it for the 1st, for the
 * month before): each organisation from the end of its last statement, or the month's start,
 * to the month's end. Idempotent: run again, it issues only what is missing. An organisation
 * that fails is logged and counted, and the others go on; the next run retries it.
 */
export async function issueMonthlyStatements(
  db: Database,
  month: string,
  options: { shop?: ShopLegal | null; now?: Date; log?: (line: string) => void } = {},
): Promise<MonthlyRun> {
  const { start, end } = monthPeriod(month);
  const now = options.now ?? new Date();
  const run: MonthlyRun = { month, issued: 0, already: 0, nothing: 0, failed: 0 };
  const shop = options.shop === undefined ? shopLegalFromEnv() : options.shop;
  if (!shop) {
    run.refused = "Faltan los datos fiscales de la tienda (SHOP_LEGAL_NAME, SHOP_TAX_ID, SHOP_ADDRESS): no se emite ninguna liquidación.";
    logger.error({ month }, run.refused);
    return run;
  }
  if (end > now) throw new RangeError(`${month} has not ended yet`);
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    // Organisations with a coupon sold before the month's end, a page at a time, with where their last statement ends.
    const page = await query<{ id: string; last_end: Date | string | null }>(
      db,
      sql`SELECT org.id, (SELECT max(period_end) FROM statements st WHERE st.organization_id = org.id AND st.issued_at IS NOT NULL) AS last_end
          FROM organizations org
          WHERE org.id > ${after}::uuid AND EXISTS (
            SELECT 1 FROM coupons c WHERE c.organization_id = org.id AND c.paid_at < ${end.toISOString()}::timestamptz)
          ORDER BY org.id LIMIT 500`,
    );
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    for (const org of page) {
      const lastEnd = org.last_end ? new Date(org.last_end) : null;
      if (lastEnd && lastEnd >= end) {
        run.already++;
        continue;
      }
      const from = lastEnd && lastEnd > start ? lastEnd : start;
      try {
        const issued = await issueStatement(db, { organizationId: org.id, start: from, end }, { shop, now });
        if (!issued) run.nothing++;
        else if (issued.created) run.issued++;
        else run.already++;
      } catch (error) {
        run.failed++;
        logger.error({ err: error, organizationId: org.id, month }, "Liquidación no emitida.");
      }
    }
    options.log?.(`${run.issued + run.already + run.nothing + run.failed} organizaciones`);
  }
  logger.info(run, "Liquidaciones del mes emitidas.");
  return run;
}
