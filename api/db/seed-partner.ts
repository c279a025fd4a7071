import { eq, sql } from "drizzle-orm";
import { query, type Database } from "./client";
import { DEMO_CASHIER, DEMO_MANAGER, DEMO_PARTNER, DEMO_PASSWORD_HASH } from "./demo-accounts";
import type { PartnerRole } from "#rules/partner-roles";
import { offers, organizationMembers, users } from "./schema";
import { seedUuid } from "./seed";
import { SEED_OFFERS } from "./seed-data";

/**
 * The demo partner: a member of the organisations behind the first two demo offers, which are the
 * ones the demo customer bought, so its coupons can be redeemed at /socios straight away; their
 * owner, with a manager and a cashier beside it. Only with the demo catalogue, and each account
 * only once (an existing account of that address is left alone).
 */
export async function seedDemoPartner(db: Database): Promise<boolean> {
  const orgKeys = [...new Set(SEED_OFFERS.slice(0, 2).map((o) => o.organization.key))];
  const extra = SEED_OFFERS.find((o) => !orgKeys.includes(o.organization.key));
  if (orgKeys.length < 2 && extra) orgKeys.push(extra.organization.key);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7262007)`);
    const present = await tx
      .select({ id: offers.id })
      .from(offers)
      .where(eq(offers.id, seedUuid("offer", SEED_OFFERS[0].key)));
    if (present.length === 0) return false;
    let created = false;
    const accounts: [typeof DEMO_PARTNER, PartnerRole][] = [
      [DEMO_PARTNER, "owner"],
      [DEMO_MANAGER, "manager"],
      [DEMO_CASHIER, "cashier"],
    ];
    for (const [account, role] of accounts) {
      const [existing] = await query<{ id: string }>(tx, sql`SELECT id FROM users WHERE email = ${account.email}`);
      if (existing) continue;
      const [partner] = await tx
        .insert(users)
        .values({
          email: account.email,
          passwordHash: DEMO_PASSWORD_HASH,
          role: "partner",
          firstName: account.firstName,
          lastName: account.lastName,
          emailVerifiedAt: new Date(),
        })
        .returning();
      await tx
        .insert(organizationMembers)
        .values(orgKeys.map((key) => ({ organizationId: seedUuid("organization", key), userId: partner.id, role })));
      created = true;
    }
    return created;
  });
}
