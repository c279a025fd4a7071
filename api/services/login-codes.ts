import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { LOGIN_CODE_LENGTH, LOGIN_CODE_MAX_TRIES, LOGIN_CODE_MINUTES } from "#rules/accounts";
import type { Config } from "#platform/config.server";
import type { Database, Executor } from "#api/db/client";
import { loginCodes } from "#api/db/schema";
import { queueMail } from "#api/mail/outbox";
import { HttpError } from "#api/http";
import { countOf, plural } from "#rules/plurals";

export type CodePurpose = "login" | "activation" | "reset_password" | "reset_email";

/** The mail kind (api/mail/messages.ts) that carries each purpose's code. */
const MAIL_KIND: Record<CodePurpose, string> = {
  login: "login-code",
  activation: "account-activation",
  reset_password: "password-reset",
  reset_email: "email-change",
};

/** Only a keyed hash is stored: a leaked table does not give away live codes. */
const hashCode = (config: Config, email: string, code: string) =>
  createHmac("sha256", config.jwtSecret).update(`${email}:${code}`).digest("hex");

/** A mail (api/mail/messages.ts) sent instead of the code. */
export type CodeNotice = { kind: string; data: Record<string, unknown> };

/**
 * A new 6-digit code for this email and purpose, valid LOGIN_CODE_MINUTES, mailed through the
 * outbox in the same transaction. Earlier codes of the same purpose stop working: only the
 * newest mail is the right one.
 *
 * With `notice`, the inbox gets that notice instead and nobody ever sees the code: asking for an
 * address without an account (or one that cannot take the code) does the same work and leaves the
 * same kind of row, so neither the time of the answer nor a later check of a code tells anyone
 * which addresses have accounts.
 */
export async function sendCode(
  db: Database,
  config: Config,
  {
    email,
    purpose,
    userId = null,
    newEmail = null,
    mailTo = email,
    notice,
    perHour,
  }: {
    email: string;
    purpose: CodePurpose;
    userId?: string | null;
    newEmail?: string | null;
    mailTo?: string;
    notice?: CodeNotice;
    /** At most this many codes to this email an hour: counted and sent in one step (TOO_MANY_CODES, 429). */
    perHour?: number;
  },
) {
  const code = String(randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, "0");
  await db.transaction(async (tx) => {
    if (perHour !== undefined) {
      // One request per email at a time from here to the commit: 30 at once count 0, 1, 2… and
      // the sixth is refused, instead of all 30 counting 0 before any of them wrote its code.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`login-codes:${email}`}))`);
      if ((await codesSentSince(tx, email, new Date(Date.now() - 3600_000))) >= perHour) throw new HttpError(429, TOO_MANY_CODES);
    }
    await tx
      .update(loginCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(loginCodes.email, email), eq(loginCodes.purpose, purpose), isNull(loginCodes.usedAt)));
    const [row] = await tx
      .insert(loginCodes)
      .values({
        email,
        purpose,
        codeHash: hashCode(config, email, code),
        userId,
        newEmail,
        expiresAt: new Date(Date.now() + LOGIN_CODE_MINUTES * 60_000),
      })
      .returning({ id: loginCodes.id });
    const kind = notice?.kind ?? MAIL_KIND[purpose];
    await queueMail(tx, {
      kind,
      to: mailTo,
      dedupeKey: `${kind}:${row.id}`,
      data: notice?.data ?? { code, minutes: LOGIN_CODE_MINUTES, email, new_email: newEmail },
    });
  });
}

/** Codes sent to this email in the last hour, for the per-email limit. */
export async function codesSentSince(db: Executor, email: string, since: Date): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginCodes)
    .where(and(eq(loginCodes.email, email), gt(loginCodes.createdAt, since)));
  return Number(rows[0]?.n ?? 0);
}

export type CodeCheck =
  | { valid: true; userId: string | null; newEmail: string | null }
  | { valid: false; reason: "missing" | "wrong" | "exhausted"; triesLeft: number };

/**
 * Checks a code. Every wrong try counts, and after LOGIN_CODE_MAX_TRIES the code is dead even if
 * the right one comes next: 6 digits and 5 tries give a guesser 1 chance in 200 000 per code.
 * `consume` spends a right code (login, reset); verify-code only looks.
 */
export async function checkCode(
  db: Database,
  config: Config,
  { email, purpose, code, consume }: { email: string; purpose: CodePurpose; code: string; consume: boolean },
): Promise<CodeCheck> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(loginCodes)
      .where(
        and(eq(loginCodes.email, email), eq(loginCodes.purpose, purpose), isNull(loginCodes.usedAt), gt(loginCodes.expiresAt, new Date())),
      )
      .orderBy(desc(loginCodes.createdAt))
      .limit(1)
      .for("update");
    if (!row) return { valid: false, reason: "missing", triesLeft: 0 };
    if (row.attempts >= LOGIN_CODE_MAX_TRIES) return { valid: false, reason: "exhausted", triesLeft: 0 };
    const expected = Buffer.from(row.codeHash, "hex");
    const given = Buffer.from(hashCode(config, email, code), "hex");
    if (!timingSafeEqual(expected, given)) {
      const attempts = row.attempts + 1;
      await tx.update(loginCodes).set({ attempts }).where(eq(loginCodes.id, row.id));
      const triesLeft = LOGIN_CODE_MAX_TRIES - attempts;
      return { valid: false, reason: triesLeft > 0 ? "wrong" : "exhausted", triesLeft };
    }
    if (consume) await tx.update(loginCodes).set({ usedAt: new Date() }).where(eq(loginCodes.id, row.id));
    return { valid: true, userId: row.userId, newEmail: row.newEmail };
  });
}

export const CODE_GONE = "El código ha caducado o ya se ha usado. Pide uno nuevo.";
export const TOO_MANY_CODES = "Ya te hemos enviado varios códigos a este correo. Espera un rato antes de pedir otro.";

/** The Spanish reason a code was refused. */
export function codeProblem(check: Extract<CodeCheck, { valid: false }>): string {
  if (check.reason === "missing") return CODE_GONE;
  if (check.reason === "exhausted") return "Has agotado los intentos para este código. Pide uno nuevo.";
  return `El código no es correcto. Te ${plural(check.triesLeft, "queda", "quedan")} ${countOf(check.triesLeft, "intento", "intentos")}.`;
}
