import express, { Router } from "express";
import { z } from "zod";
import type { Config } from "#lib/config.server";
import { EmailField } from "#lib/accounts";
import type { Database } from "#api/db/client";
import { handle, HttpError, parseInput } from "#api/http";
import { rateLimit } from "#api/rate-limit";
import { checkPassword } from "#api/auth/passwords";
import { issueTokens, rotateRefresh, verifyToken } from "#api/auth/tokens";
import { claimGuestPurchases, findUserByEmail, markLoggedIn } from "#api/services/users";
import { mergeAnonymousSession } from "#api/services/customer-data";

/** POST /auth/jwt/create/, refresh/ and verify/ (simplejwt's paths and field names). */
export function jwtRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  router.use(express.json({ limit: "20kb" }));

  router.post(
    "/auth/jwt/create/",
    rateLimit({ name: "jwt-create", windowMs: 15 * 60_000, max: 100, message: "Demasiados intentos de inicio de sesión. Espera unos minutos." }),
    handle(async (req, res) => {
      const body = parseInput(
        z.object({ email: EmailField, password: z.string().min(1).max(256), anonymous_token: z.string().max(2000).optional() }),
        req.body,
      );
      const user = await findUserByEmail(db, body.email);
      const ok = await checkPassword(user?.passwordHash, body.password);
      if (!user || !ok || !user.isActive) {
        // One answer for every case, so the form cannot be used to find out who has an account.
        throw new HttpError(401, "El correo o la contraseña no son correctos, o la cuenta no está activada.", { code: "no_active_account" });
      }
      const pair = await db.transaction(async (tx) => {
        await markLoggedIn(tx, user.id);
        await claimGuestPurchases(tx, user);
        if (body.anonymous_token) await mergeAnonymousSession(tx, config, body.anonymous_token, user.id);
        return issueTokens(tx, config, user);
      });
      res.json(pair);
    }),
  );

  router.post(
    "/auth/jwt/refresh/",
    handle(async (req, res) => {
      const { refresh } = parseInput(z.object({ refresh: z.string().min(1).max(2000) }), req.body);
      res.json(await rotateRefresh(db, config, refresh));
    }),
  );

  router.post(
    "/auth/jwt/verify/",
    handle(async (req, res) => {
      const { token } = parseInput(z.object({ token: z.string().min(1).max(2000) }), req.body);
      // Any kind we issue verifies; signature, algorithm, issuer, audience and expiry are checked.
      const kinds = ["access", "refresh", "anonymous"] as const;
      for (const kind of kinds) {
        if (await verifyToken(config, token, kind).then(() => true, () => false)) {
          res.json({});
          return;
        }
      }
      await verifyToken(config, token, "access"); // throws the precise 401
    }),
  );
  return router;
}
