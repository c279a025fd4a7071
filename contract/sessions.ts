/**
 * /auth/sessions/: the caller's open sessions (one per login on a device) and ending them — one,
 * or all but the one asking. /cuenta shows them as «Dispositivos con sesión abierta».
 */
import { NoContent, defineRoute } from "#contract/define-route";
import { DeviceSessionListSchema, EndedSessionsSchema } from "#contract/accounts";

export const sessionsRoutes = {
  list: defineRoute({ method: "GET", path: "/auth/sessions/", answer: DeviceSessionListSchema }),
  /** Another account's session is as unknown as one that never existed: 404. */
  end: defineRoute({ method: "DELETE", path: "/auth/sessions/:id/", answer: NoContent }),
  endOthers: defineRoute({ method: "POST", path: "/auth/sessions/end_others/", answer: EndedSessionsSchema }),
};
