import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { EmailField } from "#rules/accounts";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { endAllSessions } from "#api/auth/sessions";
import type { Role } from "#rules/roles";
import { sendCode } from "./login-codes";

/** What staff:create did, for the operator's message. */
export type StaffOutcome = {
  created: boolean;
  /** The account's role before (an existing account). */
  previousRole: Role | null;
  /** A deactivated account switched back on (only with --reactivate). */
  reactivated: boolean;
  /** Sessions of the existing account that ended, as a role change through the API ends them. */
  sessionsEnded: number;
};

/** A deactivated account is not switched back on by staff:create unless asked (ADR 032). */
export class DeactivatedAccountError extends Error {
  constructor() {
    super(
      "Esa cuenta está desactivada: staff:create no la vuelve a activar por su cuenta. " +
        "Si debe volver como cuenta de equipo, repite la orden con --reactivate.",
    );
  }
}

/**
 * `npm run staff:create`: the first staff account of a shop, or an existing account promoted to
 * staff. No password is set: a login code goes to the address, and logging in with it proves the
 * address, as for any account. An existing account's sessions all end (its tokens carried the old
 * role); a deactivated one is refused unless `reactivate`.
 */
export async function makeStaff(db: Database, config: Config, address: string, { reactivate = false } = {}): Promise<StaffOutcome> {
  const email = EmailField.parse(address);
  const outcome = await db.transaction(async (tx): Promise<StaffOutcome> => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role, isActive: users.isActive })
      .from(users)
      .where(eq(users.email, email))
      .for("update");
    if (!existing) {
      await tx.insert(users).values({ email, role: "staff" });
      return { created: true, previousRole: null, reactivated: false, sessionsEnded: 0 };
    }
    if (!existing.isActive && !reactivate) throw new DeactivatedAccountError();
    await tx.update(users).set({ role: "staff", isActive: true }).where(eq(users.id, existing.id));
    const sessionsEnded = await endAllSessions(tx, existing.id);
    return { created: false, previousRole: existing.role as Role, reactivated: !existing.isActive, sessionsEnded };
  });
  await sendCode(db, config, { email, purpose: "login" });
  return outcome;
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
    const result = await makeStaff(db, config, email, { reactivate: args.reactivate === true });
    afterQueue();
    return result;
  };
}
