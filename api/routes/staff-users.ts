import { Router } from "express";
import { UsersQuerySchema } from "#contract/partner";
import { blank } from "#contract/page";
import type { Database } from "#api/db/client";
import { handle, idParam, parseInput } from "#api/http";
import { requireStaffActor, type Identify } from "#api/services/access";
import { eraseUser, searchUsers } from "#api/services/user-admin";

/** Staff's user management: search and erase. */
export function staffUsersRouter({ db, identify }: { db: Database; identify: Identify }): Router {
  const router = Router();
  router.get(
    "/users/",
    handle(async (req, res) => {
      await requireStaffActor(req, identify);
      const q = parseInput(UsersQuerySchema, Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, blank(v)])));
      res.set("Cache-Control", "private, no-store");
      res.json({ results: await searchUsers(db, q) });
    }),
  );
  router.delete(
    "/users/:id/",
    handle(async (req, res) => {
      const actor = await requireStaffActor(req, identify);
      await eraseUser(db, idParam(req), actor);
      res.status(204).end();
    }),
  );
  return router;
}
