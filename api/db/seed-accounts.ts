import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { couponCode } from "#api/services/sales";
import { query, type Database } from "./client";
import { DEMO_CUSTOMER, DEMO_PASSWORD_HASH, DEMO_STAFF } from "./demo-accounts";
import { coupons, offers, paymentTransactions, priceOptions, saleItems, sales, users } from "./schema";
import { seedUuid } from "./seed";
import { SEED_OFFERS } from "./seed-data";

const SEED_ACCOUNTS_LOCK_KEY = 7_262_005;

/**
 * Demo accounts beside the demo catalogue: a customer with a paid purchase (coupons to download)
 * and a staff user. Only where the demo catalogue is, and only while there are no users at all,
 * so a real shop never gets accounts with a published password. The staff account only in a
 * try-out: a deployment's staff are made with `npm run staff:create`.
 */
export async function seedDemoAccounts(db: Database, { staff = true }: { staff?: boolean } = {}): Promise<boolean> {
  const demoOffers = SEED_OFFERS.slice(0, 2).map((o) => seedUuid("offer", o.key));
  const customerHash = DEMO_PASSWORD_HASH;
  const staffHash = DEMO_PASSWORD_HASH;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_ACCOUNTS_LOCK_KEY})`);
    const [{ n }] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM users`);
    if (Number(n) > 0) return false;
    const present = await tx.select({ id: offers.id }).from(offers).where(eq(offers.id, demoOffers[0]));
    if (present.length === 0) return false;

    const verified = new Date();
    const [customer] = await tx
      .insert(users)
      .values({
        email: DEMO_CUSTOMER.email,
        passwordHash: customerHash,
        firstName: DEMO_CUSTOMER.firstName,
        lastName: DEMO_CUSTOMER.lastName,
        emailVerifiedAt: verified,
      })
      .returning();
    if (staff)
      await tx.insert(users).values({
        email: DEMO_STAFF.email,
        passwordHash: staffHash,
        role: "staff",
        firstName: DEMO_STAFF.firstName,
        lastName: DEMO_STAFF.lastName,
        emailVerifiedAt: verified,
      });

    // One paid order of two offers, a week ago, as if bought through the sandbox. The catalogue's
    // stock figures are what is left to sell, so this history does not change them.
    const paidAt = new Date(Date.now() - 7 * 24 * 3600_000);
    const lines: { offerId: string; optionId: string; cents: number; quantity: number }[] = [];
    for (const [i, offerId] of demoOffers.entries()) {
      const [option] = await tx
        .select()
        .from(priceOptions)
        .where(eq(priceOptions.offerId, offerId))
        .orderBy(priceOptions.position)
        .limit(1);
      if (!option) continue;
      const quantity = i === 0 ? 2 : 1;
      lines.push({ offerId, optionId: option.id, cents: Math.round(Number(option.actualPrice) * 100), quantity });
    }
    const total = lines.reduce((s, l) => s + l.cents * l.quantity, 0);
    const [sale] = await tx
      .insert(sales)
      .values({
        sessionToken: `demo-${randomUUID()}`,
        email: DEMO_CUSTOMER.email,
        userId: customer.id,
        status: "paid",
        provider: "sandbox",
        totalCents: total,
        checkoutData: { subs_agreement: false, email: DEMO_CUSTOMER.email, need_receipt: false, for_present: [] },
        createdAt: paidAt,
        expiresAt: paidAt,
        paidAt,
      })
      .returning();
    await tx
      .insert(paymentTransactions)
      .values({ saleId: sale.id, provider: "sandbox", amountCents: total, status: "captured", returnUrl: "", cancelUrl: "" });
    for (const line of lines) {
      const [item] = await tx
        .insert(saleItems)
        .values({
          saleId: sale.id,
          offerId: line.offerId,
          priceOptionId: line.optionId,
          quantity: line.quantity,
          unitPriceCents: line.cents,
          paidUnitCents: line.cents,
        })
        .returning();
      await tx.insert(coupons).values(Array.from({ length: line.quantity }, () => ({ saleItemId: item.id, code: couponCode() })));
    }
    return true;
  });
}
