import { sql } from "drizzle-orm";
import type { ReminderKind } from "#rules/reminders";
import { query, type Executor } from "#api/db/client";

/** The stop link of a reminder: that address gets no more of that kind (the other kind goes on). */
export async function stopReminders(db: Executor, email: string, kind: ReminderKind): Promise<void> {
  await db.execute(sql`
    INSERT INTO reminder_stops (email, kind) VALUES (${email.trim().toLowerCase()}, ${kind})
    ON CONFLICT (email, kind) DO NOTHING`);
}

export async function remindersStopped(db: Executor, email: string, kind: ReminderKind): Promise<boolean> {
  const rows = await query(db, sql`SELECT 1 FROM reminder_stops WHERE email = ${email.trim().toLowerCase()} AND kind = ${kind}`);
  return rows.length > 0;
}

/** Of these addresses, those that stopped this kind (one query for a whole batch). */
export async function stoppedAmong(db: Executor, emails: string[], kind: ReminderKind): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const rows = await query<{ email: string }>(
    db,
    sql`SELECT email FROM reminder_stops WHERE kind = ${kind} AND email = ANY(${sql.param(emails)}::text[])`,
  );
  return new Set(rows.map((r) => r.email));
}
