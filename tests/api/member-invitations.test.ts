/**
 * An owner invites by email: the invitation is mailed once (read back from the .eml the mail
 * worker writes), the answer never says whether the address has an account, and only someone
 * logged in with that address can accept it, becoming a member with the invited role.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { createMailTransport } from "#api/mail/transport";
import { messages } from "#api/mail/messages";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { ACTORS, makeWorld, newPartner, type World } from "./_partner";

let api: TestApi;
let w: World;
let mailDir = "";

beforeAll(async () => {
  api = await startTestApi();
  w = await makeWorld(api);
  mailDir = await mkdtemp(path.join(os.tmpdir(), "ofertas-invitations-"));
});
afterAll(async () => {
  await api.close();
  await rm(mailDir, { recursive: true, force: true });
});

const as = (token: string, p: string, init: { method?: string; body?: unknown } = {}) =>
  call(api, p, { ...init, headers: { authorization: `JWT ${token}` } });
const owner = () => ACTORS.partnerA.token;

/** Sends what the outbox holds into .eml files and answers the invitations mailed to this address. */
async function invitationsTo(email: string): Promise<ParsedMail[]> {
  await api.db.execute(sql`UPDATE mail_outbox SET status = 'skipped' WHERE status = 'queued' AND kind <> 'member-invitation'`);
  const config = { ...api.config, SMTP_URL: undefined, dataDir: mailDir };
  await deliverDue(api.db, { transport: createMailTransport(config, () => {}), config, messages, log: () => {}, batch: 100 });
  const files = (await readdir(path.join(mailDir, "mail")).catch(() => [] as string[])).filter((f) => f.endsWith(".eml"));
  const mails = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(mailDir, "mail", f)))));
  return mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === email));
}

const tokenIn = (mail: ParsedMail) => /\/invitacion\/([^\s"<>]+)/.exec(mail.text ?? "")?.[1];

describe("member invitations", () => {
  it("mails the invitation once; the person logged in with that address accepts and becomes a cashier", async () => {
    const invited = ACTORS.customer;
    const first = await as(owner(), `/organizations/${w.orgA}/invitations/`, {
      body: { email: invited.email.toUpperCase(), role: "cashier" },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // Inviting again while it is open: the same invitation, and no second mail.
    const again = await as(owner(), `/organizations/${w.orgA}/invitations/`, { body: { email: invited.email, role: "cashier" } });
    expect(again.body.uuid).toBe(first.body.uuid);

    const mails = await invitationsTo(invited.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toMatch(/te invita al portal de socios de ofertas/);
    expect(mail.text?.replace(/\s+/g, " ")).toContain("con el rol de cajero");
    const token = tokenIn(mail)!;
    expect(token).toBeTruthy();
    expect(await invitationsTo(invited.email)).toHaveLength(1);

    // Someone else with the link (logged in with another address) is refused; a forged link is not an invitation.
    const stranger = await newPartner(api, w.orgB);
    expect((await as(stranger.token, `/invitations/${token}/accept/`, { method: "POST" })).status).toBe(403);
    expect((await as(invited.token, `/invitations/${token.slice(0, -2)}xx/accept/`, { method: "POST" })).status).toBe(404);
    // Anonymous: log in first.
    expect((await call(api, `/invitations/${token}/`)).status).toBe(401);

    const view = await as(invited.token, `/invitations/${token}/`);
    expect(view.body).toMatchObject({ organization: { uuid: w.orgA }, role: "cashier", accepted: false });
    const accepted = await as(invited.token, `/invitations/${token}/accept/`, { method: "POST" });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ role: "cashier", accepted: true });
    // Twice is the same as once.
    expect((await as(invited.token, `/invitations/${token}/accept/`, { method: "POST" })).status).toBe(200);

    expect(
      await query(
        api.db,
        sql`SELECT m.role, u.role AS account FROM organization_members m JOIN users u ON u.id = m.user_id WHERE u.id = ${invited.id}`,
      ),
    ).toEqual([{ role: "cashier", account: "partner" }]);
    // The new cashier: the till yes, sales no.
    expect((await as(invited.token, "/sales/today/")).status).toBe(200);
    expect((await as(invited.token, "/sales/partner/")).status).toBe(403);
    const team = await as(owner(), `/organizations/${w.orgA}/members/`);
    expect(team.body.results).toContainEqual(expect.objectContaining({ email: invited.email, role: "cashier" }));
    expect(team.body.invitations.map((i: { email: string }) => i.email)).not.toContain(invited.email);
  });

  it("answers the same whether or not the address has an account", async () => {
    const known = await as(owner(), `/organizations/${w.orgA}/invitations/`, { body: { email: ACTORS.staff.email, role: "manager" } });
    const unknown = await as(owner(), `/organizations/${w.orgA}/invitations/`, { body: { email: "nadie.aun@correo.es", role: "manager" } });
    expect([known.status, unknown.status]).toEqual([201, 201]);
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(known.body.role).toBe(unknown.body.role);
    // Both are mailed: the person without an account creates one with that address, then accepts.
    expect(await invitationsTo("nadie.aun@correo.es")).toHaveLength(1);
  });

  it("refuses a bad address or role in Spanish", async () => {
    const bad = await as(owner(), `/organizations/${w.orgA}/invitations/`, { body: { email: "no-es-un-correo", role: "jefe" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/correo electrónico válido/);
    expect(JSON.stringify(bad.body)).toMatch(/Elige un rol/);
  });
});
