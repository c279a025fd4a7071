import { Router } from "express";
import type { SessionInfo } from "#contract/accounts";
import { customerRoutes } from "#contract/customer";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { on } from "#api/route";
import { getAnonymousId, getUser } from "#api/auth/context";
import { findUser } from "#api/services/users";

/** /customer/…: what belongs to the person calling (the routes of customerRoutes in contract/customer.ts). */
export function customerRouter({ db }: { db: Database; config: Config }): Router {
  const router = Router();

  on(router, customerRoutes.session, async (req, res) => {
    const auth = getUser(req);
    const user = auth ? await findUser(db, auth.id) : null;
    const answer: SessionInfo = {
      is_authenticated: Boolean(user?.isActive),
      anonymous: !user && getAnonymousId(req) !== null,
      user: user?.isActive
        ? { id: user.id, email: user.email, role: user.role, first_name: user.firstName, last_name: user.lastName }
        : null,
    };
    res.set("Cache-Control", "private, no-store").json(answer);
  });
  return router;
}
