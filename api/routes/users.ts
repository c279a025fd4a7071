import { Router, type Request } from "express";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { ACCOUNT_MAILS_PER_EMAIL_PER_HOUR, CodeField, EmailField, PasswordField } from "#rules/accounts";
import type { ActivationAnswer, RegistrationAnswer } from "#contract/accounts";
import type { Config } from "#platform/config.server";
import { isStaff, ROLES } from "#rules/roles";
import { isUuid } from "#rules/uuid";
import type { Database, Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest, fieldError, handle, HttpError, notFound, parseInput } from "#api/http";
import { clientAddress, limits, rateLimit } from "#api/rate-limit";
import { requireCaptcha } from "#api/captcha";
import { requireUser, type AuthUser } from "#api/auth/context";
import { checkPassword, hashPassword } from "#api/auth/passwords";
import { issueTokens } from "#api/auth/tokens";
import { deviceOf, endAllSessions } from "#api/auth/sessions";
import { checkCode, CODE_GONE, codeProblem, sendCode, TOO_MANY_CODES, type CodePurpose } from "#api/services/login-codes";
import { deactivatedAccount } from "#api/services/login";
import { unlockPassword } from "#api/services/password-lockouts";
import {
  claimGuestPurchases,
  findUser,
  findUserByEmail,
  isDeactivated,
  markLoggedIn,
  proveAddress,
  userAnswer,
  type UserRow,
} from "#api/services/users";
import { eraseUser } from "#api/services/user-admin";
import { sameSecret } from "#platform/same-secret.server";

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

const NEW_ADDRESS_CODE_SENT = "Te hemos enviado un código al nuevo correo para confirmarlo.";

/**
 * What lets the client that registered keep its password at activation: bound to the account and
 * to that very password hash (a later registration of the address replaces both).
 */
const registrationTicket = (config: Config, user: Pick<UserRow, "id" | "passwordHash">) =>
  createHmac("sha256", config.jwtSecret)
    .update(`registration:${user.id}:${user.passwordHash ?? ""}`)
    .digest("base64url");

/** The 201 for an address that already has an account: the shape of a new one, nothing of the real one. */
function unsavedRegistration(email: string, names: { firstName: string; lastName: string }): RegistrationAnswer {
  return {
    id: randomUUID(),
    email,
    first_name: names.firstName,
    last_name: names.lastName,
    role: "customer",
    is_active: false,
    email_verified: false,
    has_password: true,
    date_joined: new Date().toISOString(),
    registration_token: randomBytes(32).toString("base64url"),
  };
}

const Names = { first_name: z.string().trim().max(150).optional(), last_name: z.string().trim().max(150).optional() };

/** A user another caller may see: staff see everyone, everyone else only themself. */
async function visibleUser(db: Executor, caller: AuthUser, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound("No encontrado.");
  if (!isStaff(caller.role) && caller.id !== id.toLowerCase()) throw notFound("No encontrado.");
  const user = await findUser(db, id.toLowerCase());
  if (!user) throw notFound("No encontrado.");
  return user;
}

/** djoser's /auth/users/ endpoints, with a 6-digit mailed code as the token. */
export function usersRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const codeLimit = rateLimit({
    name: "account-mail",
    windowMs: 3600_000,
    max: 30,
    message: "Has pedido demasiados correos. Espera un rato.",
  });

  /**
   * Registration. An address that already has a proven account gets a mail («ya tienes una
   * cuenta») and the asker the same 201 as for a new one; the password is hashed first either
   * way, so the time does not tell the two apart. An unproven registration of the address gives
   * way to the newest one: whoever registered before never proved the address.
   */
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
      const [user] = await db
        .insert(users)
        .values({ email: body.email, passwordHash, isActive: false, ...names })
        .onConflictDoUpdate({ target: users.email, set: { passwordHash, ...names }, setWhere: sql`${users.emailVerifiedAt} IS NULL` })
        .returning();
      if (!user) {
        await sendCode(db, config, {
          email: body.email,
          purpose: "activation",
          notice: { kind: "account-exists", data: { reason: "register" } },
        });
        res.status(201).json(unsavedRegistration(body.email, names));
        return;
      }
      await sendCode(db, config, { email: user.email, purpose: "activation", userId: user.id });
      const answer: RegistrationAnswer = { ...userAnswer(user), registration_token: registrationTicket(config, user) };
      res.status(201).json(answer);
    }),
  );

  /**
   * Activation by the mailed code. Every refusal reads alike (an unknown address, an account
   * already active, a wrong code): the answer depends on the codes asked for the address, never on
   * whether it has an account. The code proves the address (proveAddress): the person is logged in
   * (djoser answers 204; the tokens in a 200 are what the registration page needs), and keeps the
   * password chosen at registration only with the registration's ticket — the client that chose it.
   */
  router.post(
    "/auth/users/activation/",
    handle(async (req, res) => {
      const body = parseInput(
        z.object({ ...UserRef, token: CodeField, registration_token: z.string().max(200).optional() }).refine(hasRef, oneRef),
        req.body,
      );
      const user = await referencedUser(db, body);
      const check = await checkCode(db, config, {
        email: user?.email ?? body.email ?? "",
        purpose: "activation",
        code: body.token,
        consume: true,
      });
      if (!check.valid) throw badRequest(codeProblem(check));
      if (!user || user.emailVerifiedAt || check.userId !== user.id) throw badRequest(CODE_GONE);
      const keepPassword = Boolean(
        user.passwordHash && body.registration_token && sameSecret(body.registration_token, registrationTicket(config, user)),
      );
      const pair = await db.transaction(async (tx) => {
        const active = await proveAddress(tx, user, { keepPassword });
        await claimGuestPurchases(tx, active);
        await markLoggedIn(tx, active.id);
        await unlockPassword(tx, active.email);
        return issueTokens(tx, config, active, deviceOf(req));
      });
      const answer: ActivationAnswer = { ...pair, has_password: keepPassword };
      res.status(200).json(answer);
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
      const check = await checkCode(db, config, {
        email: user?.email ?? body.email ?? "",
        purpose: "reset_password",
        code: body.token,
        consume: true,
      });
      if (!check.valid) throw badRequest(codeProblem(check));
      if (!user || check.userId !== user.id) throw badRequest(CODE_GONE);
      if (isDeactivated(user)) throw deactivatedAccount();
      const passwordHash = await hashPassword(body.new_password);
      await db.transaction(async (tx) => {
        // The mailed code proves the address; the new password comes after the proof and stays.
        await proveAddress(tx, user);
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await endAllSessions(tx, user.id);
        await unlockPassword(tx, user.email);
      });
      res.status(204).end();
    }),
  );

  /**
   * A new password ends every session of the account, access tokens included. The device that
   * changed it gets a fresh pair (djoser answers 204; a 200 with the pair keeps /cuenta logged in).
   */
  router.post(
    "/auth/users/set_password/",
    handle(async (req, res) => {
      const me = requireUser(req);
      const body = parseInput(
        z
          .object({ current_password: z.string().max(256).optional(), new_password: PasswordField, re_new_password: z.string() })
          .refine(passwordsMatch, { ...mismatch, path: ["re_new_password"] }),
        req.body,
      );
      const user = await findUser(db, me.id);
      if (!user) throw new HttpError(401, "Esta cuenta ya no existe.");
      // An account made by code login has no password yet: it may set one without the old one.
      if (user.passwordHash && !(await checkPassword(user.passwordHash, body.current_password ?? ""))) {
        throw fieldError("current_password", "La contraseña actual no es correcta.");
      }
      const passwordHash = await hashPassword(body.new_password);
      const pair = await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await endAllSessions(tx, user.id);
        return issueTokens(tx, config, user, deviceOf(req));
      });
      res.status(200).json(pair);
    }),
  );

  /**
   * The logged-in person asks for a new address. It must prove itself: the code goes there, and
   * reset_email_confirm applies it. An address that already has an account gets a notice instead
   * of the code, and the asker the same answer.
   */
  router.post(
    "/auth/users/set_email/",
    codeLimit,
    handle(async (req, res) => {
      const me = requireUser(req);
      const body = parseInput(
        z
          .object({ current_password: z.string().max(256).optional(), new_email: EmailField, re_new_email: EmailField })
          .refine((v) => v.new_email === v.re_new_email, { message: "Los correos no coinciden.", path: ["re_new_email"] }),
        req.body,
      );
      const user = await findUser(db, me.id);
      if (!user) throw new HttpError(401, "Esta cuenta ya no existe.");
      if (user.passwordHash && !(await checkPassword(user.passwordHash, body.current_password ?? ""))) {
        throw fieldError("current_password", "La contraseña actual no es correcta.");
      }
      await askNewAddress(user, body.new_email);
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

  /**
   * djoser's shape (uid, token, new_email, re_new_email), but an address is applied only with a
   * code sent to that address. A code from reset_email (sent to the current address) proves the
   * account, not the new address: it is answered 202 and the new address gets its own code, with
   * which the same call is made again. The applied address ends every session of the account; the
   * caller gets a fresh pair for it, so changing it on /cuenta does not log the person out.
   */
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
      const check = await checkCode(db, config, { email: user?.email ?? "", purpose: "reset_email", code: body.token, consume: true });
      if (!check.valid) throw badRequest(codeProblem(check));
      if (!user || check.userId !== user.id) throw badRequest(CODE_GONE);
      if (!check.newEmail) {
        await askNewAddress(user, body.new_email);
        res.status(202).json({ detail: NEW_ADDRESS_CODE_SENT });
        return;
      }
      if (check.newEmail !== body.new_email) throw badRequest("El correo no es el que pediste confirmar.");
      const pair = await db.transaction(async (tx) => {
        // Taken meanwhile (the code of an address with an account is never mailed): as if no code.
        if (await findUserByEmail(tx, body.new_email)) throw badRequest(CODE_GONE);
        const [changed] = await tx
          .update(users)
          .set({ email: body.new_email, emailVerifiedAt: new Date() })
          .where(eq(users.id, user.id))
          .returning();
        await endAllSessions(tx, user.id);
        await claimGuestPurchases(tx, changed);
        await unlockPassword(tx, changed.email);
        return issueTokens(tx, config, changed, deviceOf(req));
      });
      res.status(200).json(pair);
    }),
  );

  /** At most ACCOUNT_MAILS_PER_EMAIL_PER_HOUR codes of one kind to one inbox, account or not. */
  async function limitMailsTo(kind: CodePurpose, email: string) {
    await limits.consume(`account-mail:${kind}:email:${email}`, {
      points: ACCOUNT_MAILS_PER_EMAIL_PER_HOUR,
      durationSec: 3600,
      message: TOO_MANY_CODES,
    });
  }

  /** The code that proves a new address goes to that address; one that has an account gets a notice. */
  async function askNewAddress(user: UserRow, newEmail: string) {
    if (newEmail === user.email) throw badRequest("Ese ya es tu correo.", { new_email: ["Ese ya es tu correo."] });
    await limitMailsTo("reset_email", newEmail);
    const taken = await findUserByEmail(db, newEmail);
    await sendCode(db, config, {
      email: user.email,
      purpose: "reset_email",
      userId: user.id,
      newEmail,
      mailTo: newEmail,
      notice: taken ? { kind: "account-exists", data: { reason: "email-change" } } : undefined,
    });
  }

  const Update = z.object({ ...Names }).strict();
  const StaffUpdate = z.object({ ...Names, is_active: z.boolean().optional(), role: z.enum(ROLES).optional() }).strict();

  async function update(req: Request, target: UserRow, partial: boolean) {
    const caller = requireUser(req);
    const schema = isStaff(caller.role) ? StaffUpdate : Update;
    const body = parseInput(partial ? schema : schema.required({ first_name: true, last_name: true }), req.body) as z.infer<
      typeof StaffUpdate
    >;
    const [row] = await db
      .update(users)
      .set({
        ...(body.first_name !== undefined ? { firstName: body.first_name } : {}),
        ...(body.last_name !== undefined ? { lastName: body.last_name } : {}),
        ...(body.is_active !== undefined ? { isActive: body.is_active } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
      })
      .where(eq(users.id, target.id))
      .returning();
    // Switched off or given another role: every session ends now, access tokens included.
    if ((body.is_active === false && target.isActive) || (body.role !== undefined && body.role !== target.role))
      await endAllSessions(db, target.id);
    return userAnswer(row);
  }

  router.get(
    "/auth/users/",
    handle(async (req, res) => {
      const caller = requireUser(req);
      // djoser lists every user to staff and only yourself to anyone else.
      const rows = isStaff(caller.role)
        ? await db.select().from(users).orderBy(users.createdAt).limit(500)
        : [await findUser(db, caller.id)].flatMap((u) => (u ? [u] : []));
      res.json(rows.map(userAnswer));
    }),
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
