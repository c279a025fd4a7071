import { Router } from "express";
import { UsersQuerySchema } from "#contract/partner";
import { blank } from "#contract/page";
import { staffUsersRoutes } from "#contract/staff-users";
import type { Database } from "#api/db/client";
import { idParam, parseInput } from "#api/http";
import { on } from "#api/route";
import { requireStaffActor, type Identify } from "#api/services/access";
import { eraseUser, searchUsers } from "#api/services/user-admin";

/** Staff's user management (contract/staff-users.ts): search and erase. */
export function staffUsersRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  on(router, staffUsersRoutes.list, async (req, res) => {
    await requireStaffActor(req, identify);
    const q = parseInput(UsersQuerySchema, Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, blank(v)])));
    res.set("Cache-Control", "private, no-store");
    res.json({ results: await searchUsers(db, q) });
  });
  on(router, staffUsersRoutes.erase, async (req, res) => {
    const actor = await requireStaffActor(req, identify);
    await eraseUser(db, idParam(req), actor);
    res.status(204).end();
  });
  return router;
}
