import type { Database } from "#api/db/client";
import { seedIfEmpty } from "#api/db/seed";
import { seedDemoAccounts } from "#api/db/seed-accounts";
import { seedDemoPartner } from "#api/db/seed-partner";

/** The demo catalogue, accounts and partner, as `npm start` has them. */
export async function seedDemoData(db: Database) {
  await seedIfEmpty(db);
  await seedDemoAccounts(db);
  await seedDemoPartner(db);
}
