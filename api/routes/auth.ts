import express, { Router, type Request } from "express";
import type { Config } from "#platform/config.server";
import { authRoutes } from "#contract/auth";
import type { Database } from "#api/db/client";
import { handle, HttpError } from "#api/http";
import { on } from "#api/route";
import { clientAddress, limits } from "#api/rate-limit";
import { checkPassword } from "#api/auth/passwords";
import { issueTokens, rotateRefresh, sessionOfRefresh, verifyToken } from "#api/auth/tokens";
import { deviceOf, endSession } from "#api/auth/sessions";
import { requireUser } from "#api/auth/context";
import { countPasswordFailure, forgetPasswordFailures, isPasswordLocked } from "#api/services/password-lockouts";
import { claimGuestPurchases, findUserByEmail, markLoggedIn } from "#api/services/users";
import { mergeAnonymousSession } from "#api/services/customer-data";

/** Wrong passwords from one client address in 15 minutes, whichever accounts they try. */
const WRONG_PASSWORDS_PER_CONNECTION = {
  points: 100,
  durationSec: 15 * 60,
  message: "Demasiados intentos de inicio de sesión. Espera unos minutos.",
};

const passwordLocked = () =>
  new HttpError(
    401,
    "Por seguridad, tras varios intentos fallidos este correo solo puede entrar con un código. Pídelo en «Entrar» escribiendo tu correo.",
    {
      code: "password_login_locked",
    },
  );

/** POST /auth/jwt/create/, refresh/, verify/ (simplejwt's paths and field names) and logout/: contract/auth.ts. */
export function jwtRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  router.use(express.json({ limit: "20kb" }));

  // Only wrong passwords count against the connection: an office or a shared mobile address
  // where many people log in rightly is not guessing.
  const connectionOf = (req: Request) => `jwt-create:ip:${clientAddress(req)}`;
  // A connection over its limit is refused before its body is read.
  const connectionLimit = handle(async (req, _res, next) => {
    await limits.consume(connectionOf(req), { ...WRONG_PASSWORDS_PER_CONNECTION, cost: 0 });
    next();
  });

  on(router, authRoutes.create, { before: [connectionLimit] }, async (req, res, { body }) => {
    if (await isPasswordLocked(db, body.email)) throw passwordLocked();
    const user = await findUserByEmail(db, body.email);
    const ok = await checkPassword(user?.passwordHash, body.password);
    // A password opens only an address someone has proven: an account registered with a
    // stranger's email, or given an email nobody confirmed, is no way in.
    if (!user || !ok || !user.isActive || !user.emailVerifiedAt) {
      await limits.consume(connectionOf(req), WRONG_PASSWORDS_PER_CONNECTION);
      if (await countPasswordFailure(db, body.email)) throw passwordLocked();
      // One answer for every case, so the form cannot be used to find out who has an account.
      throw new HttpError(401, "El correo o la contraseña no son correctos, o la cuenta no está activada.", {
        code: "no_active_account",
      });
    }
    const pair = await db.transaction(async (tx) => {
      await markLoggedIn(tx, user.id);
      await claimGuestPurchases(tx, user);
      if (body.anonymous_token) await mergeAnonymousSession(tx, config, body.anonymous_token, user.id);
      return issueTokens(tx, config, user, deviceOf(req));
    });
    await forgetPasswordFailures(body.email);
    res.json(pair);
  });

  on(router, authRoutes.refresh, async (_req, res, { body }) => {
    res.json(await rotateRefresh(db, config, body.refresh));
  });

  /**
   * Logout: the session of the refresh token sent (or, without one, of the access token) ends on
   * the server, access tokens included, so a copy of the client's tokens is worth nothing after.
   */
  on(router, authRoutes.logout, async (req, res, { body }) => {
    if (body.refresh) {
      const { userId, sessionId } = await sessionOfRefresh(config, body.refresh);
      await endSession(db, userId, sessionId);
    } else {
      const me = requireUser(req);
      await endSession(db, me.id, me.sessionId);
    }
    res.status(204).end();
  });

  on(router, authRoutes.verify, async (_req, res, { body }) => {
    // Any kind we issue verifies; signature, algorithm, issuer, audience and expiry are checked.
    const kinds = ["access", "refresh", "anonymous"] as const;
    for (const kind of kinds) {
      if (
        await verifyToken(config, body.token, kind).then(
          () => true,
          () => false,
        )
      ) {
        res.json({});
        return;
      }
    }
    await verifyToken(config, body.token, "access"); // throws the precise 401
  });
  return router;
}
