/**
 * Registration and activation. An address that already has a proven account gets a mail («ya
 * tienes una cuenta») and the asker the same 201 as for a new one; an unproven registration of
 * the address gives way to the newest one: whoever registered before never proved the address.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { ActivationAnswer, RegistrationAnswer } from "#contract/accounts";
import type { Config } from "#platform/config.server";
import { sameSecret } from "#platform/same-secret.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest } from "#api/http";
import { issueTokens } from "#api/auth/tokens";
import { checkCode, CODE_GONE, codeProblem, sendCode } from "#api/services/login-codes";
import { unlockPassword } from "#api/services/password-lockouts";
import { claimGuestPurchases, markLoggedIn, proveAddress, userAnswer, type UserRow } from "#api/services/users";

export type Names = { firstName: string; lastName: string };

/**
 * What lets the client that registered keep its password at activation: bound to the account and
 * to that very password hash (a later registration of the address replaces both).
 */
const registrationTicket = (config: Config, user: Pick<UserRow, "id" | "passwordHash">) =>
  createHmac("sha256", config.jwtSecret)
    .update(`registration:${user.id}:${user.passwordHash ?? ""}`)
    .digest("base64url");

/** The 201 for an address that already has an account: the shape of a new one, nothing of the real one. */
function unsavedRegistration(email: string, names: Names): RegistrationAnswer {
  return {
    id: randomUUID(),
    email,
    first_name: names.firstName,
    last_name: names.lastName,
    role: "customer",
    is_active: false,
    email_verified: false,
    has_password: true,
    date_joined: new Date().toISOString(),
    registration_token: randomBytes(32).toString("base64url"),
  };
}

/** Writes (or replaces an unproven) account and mails its code; the password was hashed first either way. */
export async function register(
  db: Database,
  config: Config,
  { email, passwordHash, names }: { email: string; passwordHash: string; names: Names },
): Promise<RegistrationAnswer> {
  const [user] = await db
    .insert(users)
    .values({ email, passwordHash, isActive: false, ...names })
    .onConflictDoUpdate({ target: users.email, set: { passwordHash, ...names }, setWhere: sql`${users.emailVerifiedAt} IS NULL` })
    .returning();
  if (!user) {
    await sendCode(db, config, {
      email,
      purpose: "activation",
      notice: { kind: "account-exists", data: { reason: "register" } },
    });
    return unsavedRegistration(email, names);
  }
  await sendCode(db, config, { email: user.email, purpose: "activation", userId: user.id });
  return { ...userAnswer(user), registration_token: registrationTicket(config, user) };
}

/**
 * Activation by the mailed code. Every refusal reads alike (an unknown address, an account
 * already active, a wrong code): the answer depends on the codes asked for the address, never on
 * whether it has an account. The code proves the address (proveAddress): the person is logged in,
 * and keeps the password chosen at registration only with the registration's ticket — the client
 * that chose it.
 */
export async function activate(
  db: Database,
  config: Config,
  user: UserRow | null,
  given: { email?: string; code: string; registrationToken?: string },
  device: string,
): Promise<ActivationAnswer> {
  const check = await checkCode(db, config, {
    email: user?.email ?? given.email ?? "",
    purpose: "activation",
    code: given.code,
    consume: true,
  });
  if (!check.valid) throw badRequest(codeProblem(check));
  if (!user || user.emailVerifiedAt || check.userId !== user.id) throw badRequest(CODE_GONE);
  const keepPassword = Boolean(
    user.passwordHash && given.registrationToken && sameSecret(given.registrationToken, registrationTicket(config, user)),
  );
  const pair = await db.transaction(async (tx) => {
    const active = await proveAddress(tx, user, { keepPassword });
    await claimGuestPurchases(tx, active);
    await markLoggedIn(tx, active.id);
    await unlockPassword(tx, active.email);
    return issueTokens(tx, config, active, device);
  });
  return { ...pair, has_password: keepPassword };
}
