import { desc, eq, sql } from "drizzle-orm";
import type { CommissionRateInput, CommissionRateView, PartnerTerms } from "#contract/statements";
import { DEFAULT_COMMISSION, formatPercentBp, type CommissionRate } from "#rules/commission";
import { IBAN_INVALID_MESSAGE, isValidIban, maskIban, normalizeIban } from "#rules/iban";
import { PAYABLE_MOMENT_LABELS, PAYABLE_MOMENT_TERMS, type PayableMoment } from "#rules/payable";
import { formatCents, fromCents } from "#rules/prices";
import { madridDate } from "#rules/dates";
import { query, type Executor } from "#api/db/client";
import { commissionRates, organizations, payoutAccounts, statements } from "#api/db/schema";
import { fieldError, HttpError, notFound } from "#api/http";
import { canSeeOrganization, forbidden, type Scope } from "#api/services/access";

/**
 * An organisation's money terms: its dated commission rates, the moment its coupons become
 * payable, its legal identity and the IBAN payouts go to. Staff set the commercial terms; an
 * organisation's members read them and keep their legal identity and IBAN up to date.
 */

export type RateRow = { id: string; validFrom: string; percentBp: number; fixedCents: number; createdAt: Date };

/** The organisation, if the caller may see it; else 404 (a partner learns nothing of others). */
export async function organizationFor(db: Executor, scope: Scope, organizationId: string) {
  if (!canSeeOrganization(scope, organizationId)) throw notFound("Empresa no encontrada.");
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Empresa no encontrada.");
  return org;
}

function requireStaff(scope: Scope) {
  if (!scope.staff) throw forbidden();
}

/** Every rate of an organisation, newest day first and, within a day, newest first. */
export async function rateHistory(db: Executor, organizationId: string): Promise<RateRow[]> {
  const rows = await db
    .select()
    .from(commissionRates)
    .where(eq(commissionRates.organizationId, organizationId))
    .orderBy(desc(commissionRates.validFrom), desc(commissionRates.createdAt), desc(commissionRates.id));
  return rows.map((r) => ({ id: r.id, validFrom: r.validFrom, percentBp: r.percentBp, fixedCents: r.fixedCents, createdAt: r.createdAt }));
}

/**
 * The rate of a sale made on `day` (Madrid, «2026-10-05»): the newest row of the latest day on
 * or before it; the standard rate before the first. `history` as rateHistory answers it.
 */
export function rateOn(history: RateRow[], day: string): { rate: CommissionRate; row: RateRow | null } {
  const row = history.find((r) => r.validFrom <= day) ?? null;
  return { rate: row ? { percent_bp: row.percentBp, fixed_cents: row.fixedCents } : DEFAULT_COMMISSION, row };
}

/** «20 %», «12,5 % + 0,50 € por cupón», «0,90 € por cupón». */
export function rateLabel(rate: CommissionRate): string {
  const fixed = rate.fixed_cents ? `${formatCents(rate.fixed_cents)} por cupón` : "";
  if (rate.percent_bp === 0 && fixed) return fixed;
  return fixed ? `${formatPercentBp(rate.percent_bp)} + ${fixed}` : formatPercentBp(rate.percent_bp);
}

function rateView(rate: CommissionRate, row: RateRow | null): CommissionRateView {
  return {
    uuid: row?.id ?? null,
    valid_from: row?.validFrom ?? null,
    percent_bp: rate.percent_bp,
    fixed_cents: rate.fixed_cents,
    label: rateLabel(rate),
    standard: row === null,
    created_at: row ? row.createdAt.toISOString() : null,
  };
}

/** The last day an issued statement of the organisation covers, or null: a rate may not start on or before it. */
async function lastStatedDay(db: Executor, organizationId: string): Promise<string | null> {
  const [row] = await query<{ end: Date | string }>(
    db,
    sql`SELECT max(period_end) AS end FROM statements WHERE organization_id = ${organizationId} AND issued_at IS NOT NULL HAVING max(period_end) IS NOT NULL`,
  );
  return row ? madridDate(new Date(new Date(row.end).getTime() - 1)) : null;
}

/**
 * Staff set the commission from a day on. A rate cannot reach back into a period a statement
 * already covered (its lines are final); any later day is fine, today or ahead. Another rate of
 * the same day replaces that one (both stay in the history).
 */
export async function setCommissionRate(db: Executor, scope: Scope, organizationId: string, input: CommissionRateInput) {
  requireStaff(scope);
  await organizationFor(db, scope, organizationId);
  const stated = await lastStatedDay(db, organizationId);
  if (stated && input.valid_from <= stated) {
    throw new HttpError(
      409,
      `Ya hay liquidaciones emitidas hasta el ${stated}: la comisión nueva puede empezar el día siguiente o después.`,
    );
  }
  await db.insert(commissionRates).values({
    organizationId,
    validFrom: input.valid_from,
    percentBp: input.percent_bp,
    fixedCents: input.fixed_cents,
    createdBy: scope.actor.id,
  });
  return partnerTerms(db, scope, organizationId);
}

/** Staff set which fact makes the organisation's coupons payable; statements from now on follow it. */
export async function setPayableMoment(db: Executor, scope: Scope, organizationId: string, payableOn: PayableMoment) {
  requireStaff(scope);
  await organizationFor(db, scope, organizationId);
  await db.update(organizations).set({ payableOn }).where(eq(organizations.id, organizationId));
  return partnerTerms(db, scope, organizationId);
}

/** The IBAN payouts go to from now on, checked by its digits. Earlier ones stay on record. */
export async function setPayoutAccount(db: Executor, scope: Scope, organizationId: string, input: string) {
  await organizationFor(db, scope, organizationId);
  const iban = normalizeIban(input);
  if (!isValidIban(iban)) throw fieldError("iban", IBAN_INVALID_MESSAGE);
  await db.insert(payoutAccounts).values({ organizationId, iban, createdBy: scope.actor.id });
  return partnerTerms(db, scope, organizationId);
}

/** Who the organisation is on its statements: its legal name, NIF/CIF and fiscal address. */
export async function setLegalIdentity(
  db: Executor,
  scope: Scope,
  organizationId: string,
  input: { legal_name: string; tax_id: string; address: string },
) {
  await organizationFor(db, scope, organizationId);
  await db
    .update(organizations)
    .set({ legalName: input.legal_name, taxId: input.tax_id, address: input.address })
    .where(eq(organizations.id, organizationId));
  return partnerTerms(db, scope, organizationId);
}

/** The IBAN in use: the newest one set, or null. */
export async function currentIban(db: Executor, organizationId: string): Promise<{ iban: string; setAt: Date } | null> {
  const [row] = await db
    .select({ iban: payoutAccounts.iban, setAt: payoutAccounts.createdAt })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.organizationId, organizationId))
    .orderBy(desc(payoutAccounts.createdAt), desc(payoutAccounts.id))
    .limit(1);
  return row ?? null;
}

/** What the owner sees of its terms (and staff of any organisation's): GET of the terms screen. */
export async function partnerTerms(db: Executor, scope: Scope, organizationId: string, now = new Date()): Promise<PartnerTerms> {
  const org = await organizationFor(db, scope, organizationId);
  const [history, account, [pending]] = await Promise.all([
    rateHistory(db, organizationId),
    currentIban(db, organizationId),
    query<{ cents: number | string }>(
      db,
      sql`SELECT coalesce(sum(st.payable_cents), 0)::bigint AS cents FROM ${statements} st
          WHERE st.organization_id = ${organizationId} AND st.issued_at IS NOT NULL AND st.payable_cents > 0
            AND NOT EXISTS (SELECT 1 FROM statement_payouts p WHERE p.statement_id = st.id)`,
    ),
  ]);
  const today = madridDate(now);
  const current = rateOn(history, today);
  const seen = new Set<string>();
  return {
    organization: { uuid: org.id, name: org.name, legal_name: org.legalName ?? org.name, tax_id: org.taxId, address: org.address },
    commission: {
      current: rateView(current.rate, current.row),
      upcoming: history
        .filter((r) => r.validFrom > today)
        .filter((r) => !seen.has(r.validFrom) && seen.add(r.validFrom))
        .map((r) => rateView({ percent_bp: r.percentBp, fixed_cents: r.fixedCents }, r))
        .reverse(),
      history: history.map((r, i) => ({
        ...rateView({ percent_bp: r.percentBp, fixed_cents: r.fixedCents }, r),
        replaced: history.findIndex((o) => o.validFrom === r.validFrom) !== i,
      })),
    },
    payable_on: org.payableOn,
    payable_on_label: PAYABLE_MOMENT_LABELS[org.payableOn],
    payable_on_terms: PAYABLE_MOMENT_TERMS[org.payableOn],
    payout_account: account ? { iban_masked: maskIban(account.iban), set_at: account.setAt.toISOString() } : null,
    pending_payout: fromCents(Number(pending?.cents ?? 0)),
  };
}
