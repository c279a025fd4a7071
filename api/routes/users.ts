import { Router, type Request } from "express";
import type { Config } from "#platform/config.server";
import { isStaff } from "#rules/roles";
import { AccountChangeSchema, AccountDeletionSchema, StaffAccountChangeSchema, usersRoutes } from "#contract/users";
import type { Database, Executor } from "#api/db/client";
import { fieldError, HttpError, parseInput } from "#api/http";
import { on } from "#api/route";
import { clientAddress, rateLimit } from "#api/rate-limit";
import { requireCaptcha } from "#api/captcha";
import { requireUser, signedIn } from "#api/auth/context";
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

async function referencedUser(db: Executor, ref: { uid?: string; email?: string }): Promise<UserRow | null> {
  return ref.uid ? findUser(db, ref.uid.toLowerCase()) : findUserByEmail(db, ref.email ?? "");
}

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

/** djoser's /auth/users/ endpoints (contract/users.ts), with a 6-digit mailed code as the token (flows in api/services/accounts/). */
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
  on(router, usersRoutes.register, { before: [codeLimit] }, async (req, res, { body }) => {
    await requireCaptcha(config, req.body, body.email, clientAddress(req));
    await limitMailsTo("activation", body.email);
    const passwordHash = await hashPassword(body.password);
    const names = { firstName: body.first_name ?? "", lastName: body.last_name ?? "" };
    res.status(201).json(await register(db, config, { email: body.email, passwordHash, names }));
  });

  // djoser answers 204; the tokens in a 200 are what the registration page needs.
  on(router, usersRoutes.activate, async (req, res, { body }) => {
    const user = await referencedUser(db, body);
    const given = { email: body.email, code: body.token, registrationToken: body.registration_token };
    res.status(200).json(await activate(db, config, user, given, deviceOf(req)));
  });

  on(router, usersRoutes.resendActivation, { before: [codeLimit] }, async (_req, res, { body: { email } }) => {
    await limitMailsTo("activation", email);
    const user = await findUserByEmail(db, email);
    // The same work and answer either way; only the inbox learns which it was.
    const waiting = user && !user.emailVerifiedAt;
    const notice = waiting ? undefined : { kind: user ? "account-exists" : "no-account", data: { reason: "activation" } };
    await sendCode(db, config, { email, purpose: "activation", userId: waiting ? user.id : null, notice });
    res.status(204).end();
  });

  // A code to reset the password or to change the address: both paths store a code and queue one
  // mail, and an address without an account is told so.
  for (const [route, purpose] of [
    [usersRoutes.resetPassword, "reset_password"],
    [usersRoutes.resetEmail, "reset_email"],
  ] as const) {
    on(router, route, { before: [codeLimit] }, async (_req, res, { body: { email } }) => {
      await limitMailsTo(purpose, email);
      const user = await findUserByEmail(db, email);
      await sendCode(db, config, {
        email,
        purpose,
        userId: user?.id ?? null,
        notice: user ? undefined : { kind: "no-account", data: { reason: purpose } },
      });
      res.status(204).end();
    });
  }

  on(router, usersRoutes.resetPasswordConfirm, async (_req, res, { body }) => {
    const user = await referencedUser(db, body);
    await resetPassword(db, config, user, { email: body.email, code: body.token, newPassword: body.new_password });
    res.status(204).end();
  });

  // djoser answers 204; a 200 with the pair keeps /cuenta logged in.
  on(router, usersRoutes.setPassword, { before: [signedIn] }, async (req, res, { body }) => {
    const user = await provenOwner(db, req, body.current_password);
    res.status(200).json(await setPassword(db, config, user, body.new_password, deviceOf(req)));
  });

  on(router, usersRoutes.setEmail, { before: [codeLimit, signedIn] }, async (req, res, { body }) => {
    const user = await provenOwner(db, req, body.current_password);
    await askNewAddress(db, config, user, body.new_email);
    res.status(202).json({ detail: NEW_ADDRESS_CODE_SENT });
  });

  // djoser's shape (uid, token, new_email, re_new_email), but an address is applied only with a
  // code sent to that address: a code from reset_email is answered 202 and a code sent onward.
  on(router, usersRoutes.resetEmailConfirm, async (req, res, { body }) => {
    const user = await findUser(db, body.uid.toLowerCase());
    const outcome = await confirmNewAddress(db, config, user, { code: body.token, newEmail: body.new_email }, deviceOf(req));
    if (outcome.asked) res.status(202).json({ detail: NEW_ADDRESS_CODE_SENT });
    else res.status(200).json(outcome.pair);
  });

  // The body of a change is read once the caller and the account are known: staff may change more.
  async function update(req: Request, target: UserRow, partial: boolean) {
    const caller = requireUser(req);
    const schema = isStaff(caller.role) ? StaffAccountChangeSchema : AccountChangeSchema;
    const body = parseInput(partial ? schema : schema.required({ first_name: true, last_name: true }), req.body);
    return updateUser(db, target, body);
  }

  on(router, usersRoutes.list, async (req, res) => {
    res.json(await visibleUsers(db, requireUser(req)));
  });

  const accounts = [
    [usersRoutes.me, usersRoutes.replaceMe, usersRoutes.updateMe, usersRoutes.deleteMe],
    [usersRoutes.get, usersRoutes.replace, usersRoutes.update, usersRoutes.remove],
  ] as const;
  for (const [get, replace, change, remove] of accounts) {
    const target = async (req: Request) => {
      const caller = requireUser(req);
      return visibleUser(db, caller, req.params.id ?? caller.id);
    };
    on(router, get, async (req, res) => {
      res.json(userAnswer(await target(req)));
    });
    on(router, replace, async (req, res) => {
      res.json(await update(req, await target(req), false));
    });
    on(router, change, async (req, res) => {
      res.json(await update(req, await target(req), true));
    });
    on(router, remove, async (req, res) => {
      const caller = requireUser(req);
      const user = await target(req);
      // djoser asks for the password before a self-deletion; an account without one (code login)
      // has nothing to ask, and the storefront confirms with a second step instead.
      if (caller.id === user.id && user.passwordHash) {
        const { current_password } = parseInput(AccountDeletionSchema, req.body ?? {});
        if (!(await checkPassword(user.passwordHash, current_password ?? ""))) {
          throw fieldError("current_password", "La contraseña actual no es correcta.");
        }
      }
      // The staff endpoint refuses erasing oneself; here erasing oneself is the point.
      await eraseUser(db, user.id, { id: "" });
      res.status(204).end();
    });
  }

  return router;
}
