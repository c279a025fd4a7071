import { Router, type Request } from "express";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { InviteMemberSchema, MemberRoleSchema } from "#contract/members";
import type { Config } from "#platform/config.server";
import { query, type Database } from "#api/db/client";
import { handle, idParam, parseInput } from "#api/http";
import { actorOf, membershipsOf, partnerScope, requireStaffActor, type Identify } from "#api/services/access";
import { findOrganization } from "#api/services/organizations";
import {
  acceptInvitation,
  addMember,
  cancelInvitation,
  changeRole,
  invite,
  listInvitations,
  listMembers,
  readInvitation,
  removeMember,
} from "#api/services/members";
import type { PartnerAction } from "#rules/partner-roles";

const noStore = { "Cache-Control": "private, no-store" };
const TokenParam = z.string().min(10).max(200);

/**
 * Who acts for an organisation. Owners (and staff) manage its members and invite by email; the
 * invited person accepts once logged in with that address. Staff may still add an existing
 * account directly. Mounted before the organisations' router: /organizations/memberships/ is not an id.
 */
export function partnerMembersRouter({ db, config, identify }: { db: Database; config: Config; identify: Identify }): Router {
  const router = Router();
  /** The organisation in the caller's scope for this action: another's is a 404, a role that may not is a 403. */
  const organizationFor = async (req: Request, action: PartnerAction) => {
    await findOrganization(db, await partnerScope(db, req, identify), idParam(req));
    const scope = await partnerScope(db, req, identify, action);
    return { scope, org: await findOrganization(db, scope, idParam(req)) };
  };

  router.get(
    "/organizations/memberships/",
    handle(async (req, res) => {
      const scope = await partnerScope(db, req, identify);
      const mine = scope.staff ? [] : await membershipsOf(db, scope.actor.id);
      const names = mine.length
        ? await query<{ id: string; name: string }>(
            db,
            sql`SELECT id, name FROM organizations WHERE id IN (${sql.join(
              mine.map((m) => sql`${m.id}::uuid`),
              sql`, `,
            )}) ORDER BY name`,
          )
        : [];
      const roleOf = new Map(mine.map((m) => [m.id, m.role]));
      res.set(noStore).json({ results: names.map((o) => ({ uuid: o.id, name: o.name, role: roleOf.get(o.id)! })) });
    }),
  );

  router.get(
    "/organizations/:id/members/",
    handle(async (req, res) => {
      const { org } = await organizationFor(req, "members.read");
      res.set(noStore).json({ results: await listMembers(db, org.id), invitations: await listInvitations(db, org.id) });
    }),
  );

  /** Staff add an existing account at once (an owner unless a role is given); owners invite instead. */
  router.post(
    "/organizations/:id/members/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const org = await findOrganization(db, await partnerScope(db, req, identify), idParam(req));
      const { email, role } = parseInput(
        z.object({ email: z.string().trim().min(3).max(254), role: MemberRoleSchema.shape.role.optional() }),
        req.body,
      );
      res.status(201).json({ results: await addMember(db, org.id, email, role) });
    }),
  );

  router.patch(
    "/organizations/:id/members/:userId/",
    handle(async (req, res) => {
      const { org, scope } = await organizationFor(req, "members.write");
      const { role } = parseInput(MemberRoleSchema, req.body);
      res.set(noStore).json({ results: await changeRole(db, org.id, idParam(req, "userId"), role, !scope.staff) });
    }),
  );

  router.delete(
    "/organizations/:id/members/:userId/",
    handle(async (req, res) => {
      const { org, scope } = await organizationFor(req, "members.write");
      await removeMember(db, org.id, idParam(req, "userId"), !scope.staff);
      res.status(204).end();
    }),
  );

  router.post(
    "/organizations/:id/invitations/",
    handle(async (req, res) => {
      const { org, scope } = await organizationFor(req, "members.write");
      const { email, role } = parseInput(InviteMemberSchema, req.body);
      res
        .status(201)
        .set(noStore)
        .json(await invite(db, org.id, scope.actor, email, role));
    }),
  );

  router.delete(
    "/organizations/:id/invitations/:invitationId/",
    handle(async (req, res) => {
      const { org } = await organizationFor(req, "members.write");
      await cancelInvitation(db, org.id, idParam(req, "invitationId"));
      res.status(204).end();
    }),
  );

  // ---- The invited person, logged in with the invited address (any role: most are customers).
  router.get(
    "/invitations/:token/",
    handle(async (req, res) => {
      const actor = await actorOf(req, identify);
      res.set(noStore).json(await readInvitation(db, config.jwtSecret, parseInput(TokenParam, req.params.token), actor));
    }),
  );
  router.post(
    "/invitations/:token/accept/",
    handle(async (req, res) => {
      const actor = await actorOf(req, identify);
      res.set(noStore).json(await acceptInvitation(db, config.jwtSecret, parseInput(TokenParam, req.params.token), actor));
    }),
  );

  return router;
}
