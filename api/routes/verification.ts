import express, { Router } from "express";
import { LOGIN_CODE_SENDS_PER_ADDRESS_PER_HOUR, LOGIN_CODE_SENDS_PER_EMAIL_PER_HOUR } from "#rules/accounts";
import type { Config } from "#platform/config.server";
import { verificationRoutes } from "#contract/verification";
import type { Database } from "#api/db/client";
import { badRequest } from "#api/http";
import { on } from "#api/route";
import { clientAddress, rateLimit } from "#api/rate-limit";
import { requireCaptcha } from "#api/captcha";
import { checkCode, codeProblem, sendCode } from "#api/services/login-codes";
import { logInProvenEmail } from "#api/services/login";
import { deviceOf } from "#api/auth/sessions";

/** POST /verification/send-code/, verify-code/ and otp-login/ (contract/verification.ts): login by a code sent by mail. */
export function verificationRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  router.use("/verification", express.json({ limit: "20kb" }));

  on(
    router,
    verificationRoutes.sendCode,
    {
      before: [
        // Per client address (req.ip: forwarded headers only from a trusted proxy) …
        rateLimit({
          name: "send-code",
          windowMs: 3600_000,
          max: LOGIN_CODE_SENDS_PER_ADDRESS_PER_HOUR,
          message: "Has pedido demasiados códigos. Espera un rato antes de pedir otro.",
        }),
      ],
    },
    async (req, res, { body: { email } }) => {
      // Turnstile's token when the visitor's browser ran the widget; the storefront's proof without JS.
      await requireCaptcha(config, req.body, email, clientAddress(req));
      // … and per email, counted in the table of sent codes (so every process agrees) in the
      // same transaction that writes the new one.
      await sendCode(db, config, { email, purpose: "login", perHour: LOGIN_CODE_SENDS_PER_EMAIL_PER_HOUR });
      res.json({ detail: "Te hemos enviado un código.", email });
    },
  );

  on(router, verificationRoutes.verifyCode, async (_req, res, { body: { email, code } }) => {
    const check = await checkCode(db, config, { email, purpose: "login", code, consume: false });
    res.json(check.valid ? { valid: true } : { valid: false, detail: codeProblem(check) });
  });

  on(router, verificationRoutes.otpLogin, async (req, res, { body }) => {
    const check = await checkCode(db, config, { email: body.email, purpose: "login", code: body.code, consume: true });
    if (!check.valid) throw badRequest(codeProblem(check), { code: "invalid_code" });
    // The code proves the address: the first login creates the customer.
    const pair = await logInProvenEmail(db, config, { email: body.email, device: deviceOf(req), anonymousToken: body.anonymous_token });
    res.json(pair);
  });
  return router;
}
