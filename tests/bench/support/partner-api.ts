/**
 * The partner portal's API as the portal calls it, for the `statements` and `till` sections: the
 * demo partner made a member of large organisation 1 (the busy one), logged in, and timed requests.
 */
import { sql } from "drizzle-orm";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { query, type Database } from "#api/db/client";
import { seedDemoAccounts } from "#api/db/seed-accounts";
import { seedDemoPartner } from "#api/db/seed-partner";

/** The busy partner: organisation 1 of the large seed (api/db/seed-large.ts names its ids so). */
export const BUSY_ORGANIZATION = 1;
export async function busyOrganizationId(db: Database): Promise<string> {
  const [row] = await query<{ id: string }>(db, sql`SELECT md5('ofertas:large:org:' || ${BUSY_ORGANIZATION}::int)::uuid AS id`);
  return row.id;
}

/** The demo partner joins the busy organisation (once), so its logins see that organisation's sales. */
export async function joinBusyOrganization(db: Database): Promise<string> {
  // As a server's start would, if none has started on this database yet.
  await seedDemoAccounts(db);
  await seedDemoPartner(db);
  const id = await busyOrganizationId(db);
  await db.execute(sql`
    INSERT INTO organization_members (organization_id, user_id)
    SELECT ${id}::uuid, u.id FROM users u WHERE u.email = ${DEMO_PARTNER.email}
    ON CONFLICT DO NOTHING`);
  return id;
}

/** A fresh login of the demo partner (a till, or the portal): its access token. */
export async function partnerToken(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/v0/auth/jwt/create/`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ email: DEMO_PARTNER.email, password: DEMO_PARTNER.password }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

export type Timed = { status: number; ms: number; body: unknown };

/** One API request as the partner, timed from sending to the whole answer read. */
export async function timedCall(origin: string, token: string, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(`${origin}/api/v0${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `JWT ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the message.
  }
  return { status: res.status, ms, body: parsed };
}
