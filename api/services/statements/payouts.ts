import { eq, sql } from "drizzle-orm";
import type { PayoutInput, StatementView } from "#contract/statements";
import { madridDate } from "#rules/dates";
import { query, type Database } from "#api/db/client";
import { statementPayouts, statements } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { forbidden, type Scope } from "#api/services/access";
import { getStatement } from "./read";
import { currentIban } from "./terms";

/**
 * Staff record the bank transfer that paid a statement: the day and the transfer's reference.
 * Once: the same transfer again answers the statement as it is (a double submit, a retry); a
 * different one is refused, since the statement is already paid. Only an issued statement with
 * something to pay; to the IBAN it was issued with, or the organisation's if it had none then.
 */
export async function markStatementPaid(
  db: Database,
  scope: Scope,
  statementId: string,
  input: PayoutInput,
  now = new Date(),
): Promise<StatementView> {
  if (!scope.staff) throw forbidden();
  await db.transaction(async (tx) => {
    const [statement] = await tx.select().from(statements).where(eq(statements.id, statementId)).for("update");
    if (!statement?.issuedAt) throw notFound("Liquidación no encontrada.");
    const [paid] = await tx.select().from(statementPayouts).where(eq(statementPayouts.statementId, statementId));
    if (paid) {
      if (paid.paidOn === input.paid_on && paid.transferReference === input.transfer_reference) return;
      throw new HttpError(409, `Esta liquidación ya se pagó el ${paid.paidOn} (transferencia ${paid.transferReference}).`);
    }
    if (statement.payableCents <= 0) throw new HttpError(409, "Esta liquidación no tiene importe a pagar.");
    const iban = statement.partner.iban ?? (await currentIban(tx, statement.organizationId))?.iban;
    if (!iban) throw new HttpError(409, "La empresa no tiene IBAN: pídele que lo añada antes de pagarle.");
    if (input.paid_on > madridDate(now)) throw new HttpError(400, "La fecha de pago no puede ser posterior a hoy.");
    if (input.paid_on < madridDate(statement.issuedAt))
      throw new HttpError(400, "La fecha de pago no puede ser anterior a la liquidación.");
    await query(
      tx,
      sql`INSERT INTO statement_payouts (statement_id, paid_on, transfer_reference, amount_cents, iban, recorded_by)
          VALUES (${statementId}, ${input.paid_on}, ${input.transfer_reference}, ${statement.payableCents}, ${iban}, ${scope.actor.id})`,
    );
  });
  return getStatement(db, scope, statementId);
}
