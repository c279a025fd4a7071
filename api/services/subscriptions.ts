import { sql } from "drizzle-orm";
import { query, type Executor } from "#api/db/client";

/**
 * Records marketing consent as proof: when and where it was given. A new consent after an
 * unsubscribe subscribes again (with the new date); a repeated one keeps the first date.
 */
export async function recordConsent(tx: Executor, { email, source }: { email: string; source: string }): Promise<void> {
  await tx.execute(sql`
    INSERT INTO mail_subscriptions (email, consented_at, consent_source)
    VALUES (${email.trim().toLowerCase()}, now(), ${source})
    ON CONFLICT (email) DO UPDATE SET consented_at = now(), consent_source = excluded.consent_source, unsubscribed_at = NULL
    WHERE mail_subscriptions.unsubscribed_at IS NOT NULL`);
}

/** Unsubscribing twice is fine: the first date stays. Returns whether the address had consented. */
export async function unsubscribe(db: Executor, email: string): Promise<{ subscribed: boolean }> {
  const rows = await query<{ email: string }>(
    db,
    sql`
    UPDATE mail_subscriptions SET unsubscribed_at = coalesce(unsubscribed_at, now())
    WHERE email = ${email.trim().toLowerCase()} RETURNING email`,
  );
  return { subscribed: rows.length > 0 };
}

export async function isSubscribed(db: Executor, email: string): Promise<boolean> {
  const rows = await query(
    db,
    sql`SELECT 1 FROM mail_subscriptions WHERE email = ${email.trim().toLowerCase()} AND unsubscribed_at IS NULL`,
  );
  return rows.length > 0;
}
