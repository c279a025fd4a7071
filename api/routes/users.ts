import { Router, type Request } from "express";
import { z } from "zod";
import { CodeField, EmailField, PasswordField } from "#rules/accounts";
import type { Config } from "#platform/config.server";
import { isStaff, ROLES } from "#rules/roles";
import type { Database, Executor } from "#api/db/client";
import { fieldError, handle, HttpError, parseInput } from "#api/http";
import { clientAddress, rateLimit } from "#api/rate-limit";
import { requireCaptcha } from "#api/captcha";
import { requireUser } from "#api/auth/context";
import { checkPassword, hashPassword } from "#api/auth/passwords";
import { deviceOf } from "#api/auth/sessions";
import { sendCode } from "#api/services/login-codes";
import { findUser, findUserByEmail, userAnswer, type UserRow } from "#api/services/users";
import {
  activate,
  askNewAddress,
  confirmNewAddress,
  limitMailsTo,
  NEW_ADDRESS_CODE_SENT,
  register,
  resetPassword,
  setPassword,
  updateUser,
  visibleUser,
  visibleUsers,
} from "#api/services/accounts";
import { eraseUser } from "#api/services/user-admin";

const passwordsMatch = <T extends { password?: string; re_password?: string; new_password?: string; re_new_password?: string }>(v: T) =>
  (v.password === undefined || v.password === v.re_password) && (v.new_password === undefined || v.new_password === v.re_new_password);
const mismatch = { message: "Las contraseñas no coinciden.", path: ["re_password"] };

/**
 * djoser names the user by `uid`; a page opened from the mailed link knows only the email, so either
 * may be sent. Both lead to the same code check, bound to that user's address.
 */
const UserRef = { uid: z.string().uuid("Enlace no válido.").optional(), email: EmailField.optional() };
const oneRef = { message: "Falta el correo electrónico.", path: ["email"] };
const hasRef = (v: { uid?: string; email?: string }) => Boolean(v.uid || v.email);

async function referencedUser(db: Executor, ref: { uid?: string; email?: string }): Promise<UserRow | null> {
  return ref.uid ? findUser(db, ref.uid.toLowerCase()) : findUserByEmail(db, ref.email ?? "");
}

const Names = { first_name: z.string().trim().max(150).optional(), last_name: z.string().trim().max(150).optional() };
const Update = z.object({ ...Names }).strict();
const StaffUpdate = z.object({ ...Names, is_active: z.boolean().optional(), role: z.enum(ROLES).optional() }).strict();

/** The logged-in caller's account, its current password checked when it has one. */
async function provenOwner(db: Executor, req: Request, currentPassword: string | undefined): Promise<UserRow> {
  const me = requireUser(req);
  const user = await findUser(db, me.id);
  if (!user) throw new HttpError(401, "Esta cuenta ya no existe.");
  // An account made by code login has no password yet: it may set one without the old one.
  if (user.passwordHash && !(await checkPassword(user.passwordHash, currentPassword ?? ""))) {
    throw fieldError("current_password", "La contraseña actual no es correcta.");
  }
  return user;
}

/** djoser's /auth/users/ endpoints, with a 6-digit mailed code as the token (flows in api/services/accounts/). */
export function usersRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const codeLimit = rateLimit({
    name: "account-mail",
    windowMs: 3600_000,
    max: 30,
    message: "Has pedido demasiados correos. Espera un rato.",
  });

  // The password is hashed before the account is looked at, so the time does not tell a new
  // address from one that has an account.
  router.post(
    "/auth/users/",
    codeLimit,
    handle(async (req, res) => {
      const body = parseInput(
        z.object({ email: EmailField, password: PasswordField, re_password: z.string(), ...Names }).refine(passwordsMatch, mismatch),
        req.body,
      );
      await requireCaptcha(config, req.body, body.email, clientAddress(req));
      await limitMailsTo("activation", body.email);
      const passwordHash = await hashPassword(body.password);
      const names = { firstName: body.first_name ?? "", lastName: body.last_name ?? "" };
      res.status(201).json(await register(db, config, { email: body.email, passwordHash, names }));
    }),
  );

  // djoser answers 204; the tokens in a 200 are what the registration page needs.
  router.post(
    "/auth/users/activation/",
    handle(async (req, res) => {
      const body = parseInput(
        z.object({ ...UserRef, token: CodeField, registration_token: z.string().max(200).optional() }).refine(hasRef, oneRef),
        req.body,
      );
      const user = await referencedUser(db, body);
      const given = { email: body.email, code: body.token, registrationToken: body.registration_token };
      res.status(200).json(await activate(db, config, user, given, deviceOf(req)));
    }),
  );

  router.post(
    "/auth/users/resend_activation/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      await limitMailsTo("activation", email);
      const user = await findUserByEmail(db, email);
      // The same work and answer either way; only the inbox learns which it was.
      const waiting = user && !user.emailVerifiedAt;
      const notice = waiting ? undefined : { kind: user ? "account-exists" : "no-account", data: { reason: "activation" } };
      await sendCode(db, config, { email, purpose: "activation", userId: waiting ? user.id : null, notice });
      res.status(204).end();
    }),
  );

  router.post(
    "/auth/users/reset_password/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      await limitMailsTo("reset_password", email);
      const user = await findUserByEmail(db, email);
      // Both paths store a code and queue one mail: an address without an account is told so.
      await sendCode(db, config, {
        email,
        purpose: "reset_password",
        userId: user?.id ?? null,
        notice: user ? undefined : { kind: "no-account", data: { reason: "reset_password" } },
      });
      res.status(204).end();
    }),
  );

  router.post(
    "/auth/users/reset_password_confirm/",
    handle(async (req, res) => {
      const body = parseInput(
        z
          .object({ ...UserRef, token: CodeField, new_password: PasswordField, re_new_password: z.string() })
          .refine(hasRef, oneRef)
          .refine(passwordsMatch, { ...mismatch, path: ["re_new_password"] }),
        req.body,
      );
      const user = await referencedUser(db, body);
      await resetPassword(db, config, user, { email: body.email, code: body.token, newPassword: body.new_password });
      res.status(204).end();
    }),
  );

  // djoser answers 204; a 200 with the pair keeps /cuenta logged in.
  router.post(
    "/auth/users/set_password/",
    handle(async (req, res) => {
      requireUser(req);
      const body = parseInput(
        z
          .object({ current_password: z.string().max(256).optional(), new_password: PasswordField, re_new_password: z.string() })
          .refine(passwordsMatch, { ...mismatch, path: ["re_new_password"] }),
        req.body,
      );
      const user = await provenOwner(db, req, body.current_password);
      res.status(200).json(await setPassword(db, config, user, body.new_password, deviceOf(req)));
    }),
  );

  router.post(
    "/auth/users/set_email/",
    codeLimit,
    handle(async (req, res) => {
      requireUser(req);
      const body = parseInput(
        z
          .object({ current_password: z.string().max(256).optional(), new_email: EmailField, re_new_email: EmailField })
          .refine((v) => v.new_email === v.re_new_email, { message: "Los correos no coinciden.", path: ["re_new_email"] }),
        req.body,
      );
      const user = await provenOwner(db, req, body.current_password);
      await askNewAddress(db, config, user, body.new_email);
      res.status(202).json({ detail: NEW_ADDRESS_CODE_SENT });
    }),
  );

  router.post(
    "/auth/users/reset_email/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      await limitMailsTo("reset_email", email);
      const user = await findUserByEmail(db, email);
      await sendCode(db, config, {
        email,
        purpose: "reset_email",
        userId: user?.id ?? null,
        notice: user ? undefined : { kind: "no-account", data: { reason: "reset_email" } },
      });
      res.status(204).end();
    }),
  );

  // djoser's shape (uid, token, new_email, re_new_email), but an address is applied only with a
  // code sent to that address: a code from reset_email is answered 202 and a code sent onward.
  router.post(
    "/auth/users/reset_email_confirm/",
    handle(async (req, res) => {
      const body = parseInput(
        z
          .object({ uid: z.string().uuid("Enlace no válido."), token: CodeField, new_email: EmailField, re_new_email: EmailField })
          .refine((v) => v.new_email === v.re_new_email, { message: "Los correos no coinciden.", path: ["re_new_email"] }),
        req.body,
      );
      const user = await findUser(db, body.uid.toLowerCase());
      const outcome = await confirmNewAddress(db, config, user, { code: body.token, newEmail: body.new_email }, deviceOf(req));
      if (outcome.asked) res.status(202).json({ detail: NEW_ADDRESS_CODE_SENT });
      else res.status(200).json(outcome.pair);
    }),
  );

  async function update(req: Request, target: UserRow, partial: boolean) {
    const caller = requireUser(req);
    const schema = isStaff(caller.role) ? StaffUpdate : Update;
    const body = parseInput(partial ? schema : schema.required({ first_name: true, last_name: true }), req.body) as z.infer<
      typeof StaffUpdate
    >;
    return updateUser(db, target, body);
  }

  router.get(
    "/auth/users/",
    handle(async (req, res) => res.json(await visibleUsers(db, requireUser(req)))),
  );

  for (const path of ["/auth/users/me/", "/auth/users/:id/"]) {
    const target = async (req: Request) => {
      const caller = requireUser(req);
      return visibleUser(db, caller, req.params.id ?? caller.id);
    };
    router.get(
      path,
      handle(async (req, res) => res.json(userAnswer(await target(req)))),
    );
    router.put(
      path,
      handle(async (req, res) => res.json(await update(req, await target(req), false))),
    );
    router.patch(
      path,
      handle(async (req, res) => res.json(await update(req, await target(req), true))),
    );
    router.delete(
      path,
      handle(async (req, res) => {
        const caller = requireUser(req);
        const user = await target(req);
        // djoser asks for the password before a self-deletion; an account without one (code login)
        // has nothing to ask, and the storefront confirms with a second step instead.
        if (caller.id === user.id && user.passwordHash) {
          const { current_password } = parseInput(z.object({ current_password: z.string().max(256).optional() }), req.body ?? {});
          if (!(await checkPassword(user.passwordHash, current_password ?? ""))) {
            throw fieldError("current_password", "La contraseña actual no es correcta.");
          }
        }
        // The staff endpoint refuses erasing oneself; here erasing oneself is the point.
        await eraseUser(db, user.id, { id: "" });
        res.status(204).end();
      }),
    );
  }

  return router;
}
