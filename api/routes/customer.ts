import { Router } from "express";
import type { SessionInfo } from "#lib/accounts";
import type { Config } from "#lib/config.server";
import type { Database } from "#api/db/client";
import { handle, HttpError } from "#api/http";
import { getAnonymousId, getUser, requireUser } from "#api/auth/context";
import { findUser, userAnswer } from "#api/services/users";

/** /customer/…: what belongs to the person calling. */
export function customerRouter({ db }: { db: Database; config: Config }): Router {
  const router = Router();

  router.get(
    "/customer/session/",
    handle(async (req, res) => {
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
    }),
  );
  router.get(
    "/auth/users/me/",
    handle(async (req, res) => {
      const user = await findUser(db, requireUser(req).id);
      if (!user) throw new HttpError(401, "Esta cuenta ya no existe.", { code: "user_not_found" });
      res.set("Cache-Control", "private, no-store").json(userAnswer(user));
    }),
  );
  return router;
}
