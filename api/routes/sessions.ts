import { Router } from "express";
import { sessionsRoutes } from "#contract/sessions";
import type { DeviceSession } from "#contract/accounts";
import { deviceLabel } from "#rules/devices";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { notFound } from "#api/http";
import { on } from "#api/route";
import { requireUser } from "#api/auth/context";
import { endAllSessions, endSession, openSessions } from "#api/auth/sessions";

/**
 * /auth/sessions/ (contract/sessions.ts): the caller's open sessions (one per login on a device)
 * and ending them — one, or all but the one asking. /cuenta shows them as «Dispositivos con sesión abierta».
 */
export function sessionsRouter({ db }: { db: Database }): Router {
  const router = Router();

  on(router, sessionsRoutes.list, async (req, res) => {
    const me = requireUser(req);
    const rows = await openSessions(db, me.id);
    const answer: DeviceSession[] = rows.map((s) => ({
      id: s.id,
      device: deviceLabel(s.device),
      created_at: s.createdAt.toISOString(),
      last_used_at: s.lastUsedAt.toISOString(),
      current: s.id === me.sessionId,
    }));
    res.set("Cache-Control", "private, no-store").json(answer);
  });

  on(router, sessionsRoutes.end, async (req, res, { params }) => {
    const me = requireUser(req);
    const id = params.id.toLowerCase();
    // Another account's session is as unknown as one that never existed.
    if (!isUuid(id) || !(await endSession(db, me.id, id))) throw notFound("Esta sesión no existe o ya se ha cerrado.");
    res.status(204).end();
  });

  on(router, sessionsRoutes.endOthers, async (req, res) => {
    const me = requireUser(req);
    res.json({ ended: await endAllSessions(db, me.id, { except: me.sessionId }) });
  });

  return router;
}
