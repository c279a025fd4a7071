import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { EmailField } from "#rules/accounts";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { sendCode } from "./login-codes";

/**
 * `npm run staff:create`: the first staff account of a shop, or an existing account promoted to
 * staff. No password is set: a login code goes to the address, and logging in with it proves the
 * address, as for any account.
 */
export async function makeStaff(db: Database, config: Config, address: string): Promise<{ email: string; created: boolean }> {
  const email = EmailField.parse(address);
  const created = await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).for("update");
    if (existing) {
      await tx.update(users).set({ role: "staff", isActive: true }).where(eq(users.id, existing.id));
      return false;
    }
    await tx.insert(users).values({ email, role: "staff" });
    return true;
  });
  await sendCode(db, config, { email, purpose: "login" });
  return { email, created };
}

/**
 * What the command sends the server that owns the embedded database with the address: anyone on
 * the machine reaches the control socket, but only whoever holds the shop's secret can sign this.
 */
export function staffRequestProof(config: Pick<Config, "jwtSecret">, email: string): string {
  return createHmac("sha256", config.jwtSecret).update(`staff-create:${email}`).digest("hex");
}

export function checkStaffRequestProof(config: Pick<Config, "jwtSecret">, email: string, proof: unknown): boolean {
  const expected = Buffer.from(staffRequestProof(config, email), "hex");
  const given = Buffer.from(typeof proof === "string" ? proof : "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The control command (api/control.ts) through which the running server creates the account. */
export function staffCommand(db: Database, config: Config, afterQueue: () => void) {
  return async (args: Record<string, unknown>) => {
    const email = String(args.email ?? "");
    if (!checkStaffRequestProof(config, email, args.proof))
      throw new Error("Petición no autorizada: el secreto no coincide con el del servidor.");
    const result = await makeStaff(db, config, email);
    afterQueue();
    return result;
  };
}
