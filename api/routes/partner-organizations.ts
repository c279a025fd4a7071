import { Router, type Request } from "express";
import { partnerOrganizationsRoutes } from "#contract/partner-organizations";
import type { Database } from "#api/db/client";
import { idParam, pageAnswer } from "#api/http";
import { on } from "#api/route";
import type { PartnerAction } from "#rules/partner-roles";
import { partnerScope, scopeFirst, scopeOf, requireStaffActor, type Identify, type Scope } from "#api/services/access";
import { listMembers } from "#api/services/members";
import {
  createOrganization,
  deleteOrganization,
  findOrganization,
  listOrganizations,
  toOrganization,
  updateOrganization,
} from "#api/services/organizations";

/** The businesses behind the offers, and (for staff) who may act for each. */
export function partnerOrganizationsRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request, action?: PartnerAction) => partnerScope(db, req, identify, action);
  // Who may, asked before the route reads its input (api/services/access.ts).
  const may = (action?: PartnerAction, then?: (req: Request, s: Scope) => Promise<unknown>) => scopeFirst(db, identify, action, then);

  // ---- Organisations
  on(router, partnerOrganizationsRoutes.list, { before: [may()] }, async (req, res, { query: q }) => {
    const { count, results } = await listOrganizations(db, scopeOf(res), q.search, { page: q.page, pageSize: q.page_size });
    res.set("Cache-Control", "private, no-store");
    res.json(pageAnswer(req, q.page, q.page_size, count, results));
  });
  on(router, partnerOrganizationsRoutes.create, { before: [may()] }, async (_req, res, { body }) => {
    res.status(201).json(await createOrganization(db, scopeOf(res), body));
  });
  on(router, partnerOrganizationsRoutes.get, async (req, res) => {
    const s = await scope(req);
    const org = await findOrganization(db, s, idParam(req));
    res.set("Cache-Control", "private, no-store");
    res.json({ ...toOrganization(org), members: s.staff ? await listMembers(db, org.id) : undefined });
  });
  const organizationFirst = may("organization.write", (req, s) => findOrganization(db, s, idParam(req)));
  on(router, partnerOrganizationsRoutes.replace, { before: [organizationFirst] }, async (req, res, { body }) => {
    res.json(await updateOrganization(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerOrganizationsRoutes.update, { before: [organizationFirst] }, async (req, res, { body }) => {
    res.json(await updateOrganization(db, scopeOf(res), idParam(req), body));
  });
  on(router, partnerOrganizationsRoutes.delete, async (req, res) => {
    await requireStaffActor(req, identify);
    await deleteOrganization(db, await scope(req), idParam(req));
    res.status(204).end();
  });
  return router;
}
