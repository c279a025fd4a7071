import { Router, type Request, type RequestHandler, type Response } from "express";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { partnerMembersRoutes } from "#contract/partner-members";
import type { Config } from "#platform/config.server";
import { query, type Database } from "#api/db/client";
import { handle, idParam, parseInput } from "#api/http";
import { on } from "#api/route";
import { actorOf, membershipsOf, partnerScope, requireStaffActor, type Identify, type Scope } from "#api/services/access";
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

type Found = { scope: Scope; org: Awaited<ReturnType<typeof findOrganization>> };
/** The organisation and the caller's scope, once the check before the input was read found them. */
const foundOf = (res: Response) => res.locals.found as Found;

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

  /** organizationFor, asked before the input is read: a stranger's call is a 401, 403 or 404 whatever it sends. */
  const organizationFirst = (action: PartnerAction): RequestHandler =>
    handle(async (req, res, next) => {
      res.locals.found = (await organizationFor(req, action)) satisfies Found;
      next();
    });

  on(router, partnerMembersRoutes.memberships, async (req, res) => {
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
  });

  on(router, partnerMembersRoutes.team, async (req, res) => {
    const { org } = await organizationFor(req, "members.read");
    res.set(noStore).json({ results: await listMembers(db, org.id), invitations: await listInvitations(db, org.id) });
  });

  /** Staff add an existing account at once (an owner unless a role is given); owners invite instead. */
  const staffOrganizationFirst: RequestHandler = handle(async (req, res, next) => {
    await requireStaffActor(req, identify);
    const scope = await partnerScope(db, req, identify);
    res.locals.found = { scope, org: await findOrganization(db, scope, idParam(req)) } satisfies Found;
    next();
  });
  on(router, partnerMembersRoutes.addMember, { before: [staffOrganizationFirst] }, async (_req, res, { body: { email, role } }) => {
    res.status(201).json({ results: await addMember(db, foundOf(res).org.id, email, role) });
  });

  on(router, partnerMembersRoutes.changeRole, { before: [organizationFirst("members.write")] }, async (req, res, { body: { role } }) => {
    const { org, scope } = foundOf(res);
    res.set(noStore).json({ results: await changeRole(db, org.id, idParam(req, "userId"), role, !scope.staff) });
  });

  on(router, partnerMembersRoutes.removeMember, async (req, res) => {
    const { org, scope } = await organizationFor(req, "members.write");
    await removeMember(db, org.id, idParam(req, "userId"), !scope.staff);
    res.status(204).end();
  });

  on(
    router,
    partnerMembersRoutes.invite,
    { before: [organizationFirst("members.write")] },
    async (_req, res, { body: { email, role } }) => {
      const { org, scope } = foundOf(res);
      res
        .status(201)
        .set(noStore)
        .json(await invite(db, org.id, scope.actor, email, role));
    },
  );

  on(router, partnerMembersRoutes.cancelInvitation, async (req, res) => {
    const { org } = await organizationFor(req, "members.write");
    await cancelInvitation(db, org.id, idParam(req, "invitationId"));
    res.status(204).end();
  });

  // ---- The invited person, logged in with the invited address (any role: most are customers).
  on(router, partnerMembersRoutes.invitation, async (req, res, { params }) => {
    const actor = await actorOf(req, identify);
    res.set(noStore).json(await readInvitation(db, config.jwtSecret, parseInput(TokenParam, params.token), actor));
  });
  on(router, partnerMembersRoutes.acceptInvitation, async (req, res, { params }) => {
    const actor = await actorOf(req, identify);
    res.set(noStore).json(await acceptInvitation(db, config.jwtSecret, parseInput(TokenParam, params.token), actor));
  });

  return router;
}
