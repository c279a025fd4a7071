/**
 * What the account tests read back and set up: the codes mailed to an address (from the outbox the
 * mail worker sends from), the kinds of mail it got, and accounts whose address is proven.
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { query } from "#api/db/client";
import { users } from "#api/db/schema";
import { DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { call } from "#tests/support/api-server";
import { api } from "./_file-api";
import { newEmail } from "./_helpers";

let address = 0;
/** Each test speaks from its own client address, so the per-address limit is its own. */
export const from = () => ({ "X-Forwarded-For": `10.9.${Math.floor(++address / 250)}.${address % 250}` });

/** The newest code mailed to this address, read from the outbox the mail worker sends from. */
export async function mailedCode(email: string, kind = "login-code"): Promise<string> {
  const rows = await query<{ data: { code: string } | string }>(
    api.db,
    sql`SELECT data FROM mail_outbox WHERE recipient = ${email} AND kind = ${kind} ORDER BY created_at DESC LIMIT 1`,
  );
  const data = typeof rows[0].data === "string" ? JSON.parse(rows[0].data) : rows[0].data;
  return data.code;
}

/** A fresh login code for this address, as a person gets it: asked, then read from the mail. */
export async function codeFor(email: string): Promise<string> {
  expect((await call(api, "/verification/send-code/", { body: { email }, headers: from() })).status).toBe(200);
  return mailedCode(email);
}

/** The kinds of mail queued to this address, oldest first. */
export async function mailKinds(email: string): Promise<string[]> {
  const rows = await query<{ kind: string }>(api.db, sql`SELECT kind FROM mail_outbox WHERE recipient = ${email} ORDER BY created_at, id`);
  return rows.map((r) => r.kind);
}

export const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

export const bearer = (access: string) => ({ Authorization: `JWT ${access}` });
export const passwordLogin = (email: string, password: string) =>
  call(api, "/auth/jwt/create/", { body: { email, password }, headers: from() });

/** An account with a proven address and the demo password (a precomputed hash: fast). */
export async function provenAccount(tag: string) {
  const email = newEmail(tag);
  const [user] = await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() }).returning();
  return user;
}
