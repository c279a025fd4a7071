import { createHmac } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Invitation, Member } from "#contract/partner-responses";
import { PARTNER_ROLE_LABELS, type PartnerRole } from "#rules/partner-roles";
import { query, type Executor } from "#api/db/client";
import { memberInvitations, organizationMembers, organizations } from "#api/db/schema";
import { queueMail } from "#api/mail/outbox";
import { HttpError, notFound } from "#api/http";
import type { Actor } from "#api/services/access";
import { sameSecret } from "#platform/same-secret.server";

/**
 * Who acts for an organisation and with which role (rules/partner-roles.ts). Owners invite by
 * email; an invitation becomes a membership only when someone logged in with that address accepts.
 */

const LAST_OWNER = "La empresa necesita al menos un titular: nombra otro antes de quitar este.";
const INVITATION_GONE = "Esta invitación ya no es válida: pide a la empresa que te invite de nuevo.";

/** The link's token: the invitation's id and a keyed signature of it, so no token is ever stored. */
export function invitationToken(secret: string, id: string): string {
  return `${id}.${createHmac("sha256", secret).update(`member-invitation:${id}`).digest("base64url")}`;
}

function invitationIdOf(secret: string, token: string): string | null {
  const id = token.split(".")[0] ?? "";
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  return sameSecret(token, invitationToken(secret, id)) ? id : null;
}

export async function listMembers(db: Executor, organizationId: string): Promise<Member[]> {
  const rows = await query<{
    user_id: string;
    email: string | null;
    first_name: string | null;
    role: PartnerRole;
    created_at: Date | string;
  }>(
    db,
    sql`SELECT m.user_id, u.email, u.first_name, m.role, m.created_at
        FROM organization_members m LEFT JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ${organizationId}
        ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END, m.created_at, m.user_id`,
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

export async function listInvitations(db: Executor, organizationId: string): Promise<Invitation[]> {
  const rows = await db
    .select()
    .from(memberInvitations)
    .where(
      and(
        eq(memberInvitations.organizationId, organizationId),
        isNull(memberInvitations.acceptedAt),
        gt(memberInvitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(memberInvitations.createdAt);
  return rows.map((r) => ({ uuid: r.id, email: r.email, role: r.role, expires_at: r.expiresAt.toISOString() }));
}

/** Staff add an existing account directly (an owner unless told otherwise); a customer becomes a partner. */
export async function addMember(db: Executor, organizationId: string, email: string, role: PartnerRole = "owner"): Promise<Member[]> {
  return db.transaction(async (tx) => {
    const [user] = await query<{ id: string }>(tx, sql`SELECT id FROM users WHERE email = ${email.toLowerCase()}`);
    if (!user) throw new HttpError(400, "No hay ninguna cuenta con ese correo. La persona debe registrarse antes.");
    await tx.insert(organizationMembers).values({ organizationId, userId: user.id, role }).onConflictDoNothing();
    await tx.execute(sql`UPDATE users SET role = 'partner' WHERE id = ${user.id} AND role = 'customer'`);
    return listMembers(tx, organizationId);
  });
}

/** Owners left if this member were no longer one; locks the organisation's members so two owners cannot step down at once. */
async function ownersWithout(tx: Executor, organizationId: string, userId: string): Promise<number> {
  const rows = await query<{ user_id: string; role: string }>(
    tx,
    sql`SELECT user_id, role FROM organization_members WHERE organization_id = ${organizationId} FOR UPDATE`,
  );
  if (!rows.some((r) => r.user_id === userId)) throw notFound("Esa persona no es miembro de la empresa.");
  return rows.filter((r) => r.role === "owner" && r.user_id !== userId).length;
}

/** `keepOwner`: a partner's change must leave an owner; staff may leave none (and add one later). */
export async function changeRole(
  db: Executor,
  organizationId: string,
  userId: string,
  role: PartnerRole,
  keepOwner = true,
): Promise<Member[]> {
  return db.transaction(async (tx) => {
    const left = await ownersWithout(tx, organizationId, userId);
    if (keepOwner && role !== "owner" && left === 0) throw new HttpError(409, LAST_OWNER);
    await tx
      .update(organizationMembers)
      .set({ role })
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return listMembers(tx, organizationId);
  });
}

export async function removeMember(db: Executor, organizationId: string, userId: string, keepOwner = true): Promise<void> {
  await db.transaction(async (tx) => {
    const left = await ownersWithout(tx, organizationId, userId);
    if (keepOwner && left === 0) throw new HttpError(409, LAST_OWNER);
    await tx
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
  });
}

/**
 * An invitation by email, mailed once. The answer is the same whether or not the address has an
 * account (or is already a member): the inviter never learns who has one. Inviting an address
 * again while its invitation is open changes the role and sends nothing new.
 */
export async function invite(db: Executor, organizationId: string, inviter: Actor, email: string, role: PartnerRole): Promise<Invitation> {
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`DELETE FROM member_invitations WHERE organization_id = ${organizationId} AND email = ${address} AND accepted_at IS NULL AND expires_at <= now()`,
    );
    const [row] = await tx
      .insert(memberInvitations)
      .values({ organizationId, email: address, role, invitedBy: inviter.id, expiresAt: sql`now() + interval '14 days'` })
      .onConflictDoUpdate({
        target: [memberInvitations.organizationId, memberInvitations.email],
        targetWhere: sql`accepted_at IS NULL`,
        set: { role },
      })
      .returning();
    await queueMail(tx, {
      kind: "member-invitation",
      to: address,
      dedupeKey: `member-invitation:${row.id}`,
      data: { invitation: row.id },
    });
    return { uuid: row.id, email: row.email, role: row.role, expires_at: row.expiresAt.toISOString() };
  });
}

export async function cancelInvitation(db: Executor, organizationId: string, id: string): Promise<void> {
  const gone = await db
    .delete(memberInvitations)
    .where(and(eq(memberInvitations.id, id), eq(memberInvitations.organizationId, organizationId), isNull(memberInvitations.acceptedAt)))
    .returning({ id: memberInvitations.id });
  if (!gone.length) throw notFound("Invitación no encontrada.");
}

/** What the mail and the acceptance page show: the organisation's name and the role. */
export async function invitationById(db: Executor, id: string) {
  const [row] = await db
    .select({ invitation: memberInvitations, organization: organizations.name })
    .from(memberInvitations)
    .innerJoin(organizations, eq(organizations.id, memberInvitations.organizationId))
    .where(eq(memberInvitations.id, id));
  return row ?? null;
}

/**
 * The invitation its link names, for the person logged in with its address: anyone else (or a
 * link that was tampered with, cancelled, or has expired) is told only that it is not valid.
 */
async function openInvitation(db: Executor, secret: string, token: string, actor: Actor) {
  const id = invitationIdOf(secret, token);
  const found = id ? await invitationById(db, id) : null;
  if (!found) throw notFound(INVITATION_GONE);
  if (found.invitation.email !== actor.email.trim().toLowerCase())
    throw new HttpError(403, "Esta invitación es para otra dirección de correo: entra con la dirección a la que llegó.");
  if (found.invitation.acceptedAt && found.invitation.acceptedBy !== actor.id) throw notFound(INVITATION_GONE);
  if (!found.invitation.acceptedAt && found.invitation.expiresAt.getTime() <= Date.now()) throw notFound(INVITATION_GONE);
  return found;
}

const answer = (found: NonNullable<Awaited<ReturnType<typeof invitationById>>>) => ({
  organization: { uuid: found.invitation.organizationId, name: found.organization },
  role: found.invitation.role,
  role_label: PARTNER_ROLE_LABELS[found.invitation.role],
  accepted: found.invitation.acceptedAt !== null,
});

export async function readInvitation(db: Executor, secret: string, token: string, actor: Actor) {
  return answer(await openInvitation(db, secret, token, actor));
}

/** Accepting makes a member with the invited role (a customer becomes a partner); twice is the same as once. */
export async function acceptInvitation(db: Executor, secret: string, token: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const found = await openInvitation(tx, secret, token, actor);
    if (!found.invitation.acceptedAt) {
      const { organizationId, role, id } = found.invitation;
      await tx
        .insert(organizationMembers)
        .values({ organizationId, userId: actor.id, role })
        // Already a member: the role stays as it is (an owner's own invitation never demotes them).
        .onConflictDoNothing();
      await tx.execute(sql`UPDATE users SET role = 'partner' WHERE id = ${actor.id} AND role = 'customer'`);
      await tx.update(memberInvitations).set({ acceptedAt: new Date(), acceptedBy: actor.id }).where(eq(memberInvitations.id, id));
    }
    return { ...answer(found), accepted: true };
  });
}
