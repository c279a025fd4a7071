import { Router, type Request } from "express";
import { z } from "zod";
import { OrganizationSchema } from "#contract/partner";
import { blank, pageFields } from "#contract/page";
import type { Database } from "#api/db/client";
import { handle, idParam, pageAnswer, parseInput } from "#api/http";
import { partnerScope, requireStaffActor, type Identify } from "#api/services/access";
import { listMembers } from "#api/services/members";
import {
  createOrganization,
  deleteOrganization,
  findOrganization,
  listOrganizations,
  toOrganization,
  updateOrganization,
} from "#api/services/organizations";

const OrganizationsQuery = z.object({ search: z.preprocess(blank, z.string().max(120).optional()), ...pageFields });

/** The businesses behind the offers, and (for staff) who may act for each. */
export function partnerOrganizationsRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  const scope = (req: Request) => partnerScope(db, req, identify);

  // ---- Organisations
  router.get(
    "/organizations/",
    handle(async (req, res) => {
      const s = await scope(req);
      const q = parseInput(OrganizationsQuery, req.query);
      const { count, results } = await listOrganizations(db, s, q.search, { page: q.page, pageSize: q.page_size });
      res.set("Cache-Control", "private, no-store");
      res.json(pageAnswer(req, q.page, q.page_size, count, results));
    }),
  );
  router.post(
    "/organizations/",
    handle(async (req, res) => {
      const s = await scope(req);
      res.status(201).json(await createOrganization(db, s, parseInput(OrganizationSchema, req.body)));
    }),
  );
  router.get(
    "/organizations/:id/",
    handle(async (req, res) => {
      const s = await scope(req);
      const org = await findOrganization(db, s, idParam(req));
      res.set("Cache-Control", "private, no-store");
      res.json({ ...toOrganization(org), members: s.staff ? await listMembers(db, org.id) : undefined });
    }),
  );
  const orgWrite = (schema: z.ZodTypeAny) =>
    handle(async (req, res) => {
      const s = await partnerScope(db, req, identify, "organization.write");
      const id = idParam(req);
      await findOrganization(db, s, id);
      res.json(await updateOrganization(db, s, id, parseInput(schema, req.body)));
    });
  router.put("/organizations/:id/", orgWrite(OrganizationSchema));
  router.patch("/organizations/:id/", orgWrite(OrganizationSchema.partial()));
  router.delete(
    "/organizations/:id/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      await deleteOrganization(db, await scope(req), idParam(req));
      res.status(204).end();
    }),
  );
  return router;
}
