import { Router, type Request } from "express";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { CodeField, EmailField, PasswordField } from "#lib/accounts";
import type { Config } from "#lib/config.server";
import { isStaff, ROLES } from "#lib/roles";
import { isUuid } from "#lib/uuid";
import type { Database, Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest, fieldError, handle, HttpError, notFound, parseInput } from "#api/http";
import { clientAddress, rateLimit } from "#api/rate-limit";
import { requireCaptcha } from "#api/captcha";
import { requireUser, type AuthUser } from "#api/auth/context";
import { checkPassword, hashPassword } from "#api/auth/passwords";
import { issueTokens, revokeAllRefreshTokens } from "#api/auth/tokens";
import { checkCode, codeProblem, sendCode } from "#api/services/login-codes";
import { claimGuestPurchases, findUser, findUserByEmail, markLoggedIn, userAnswer, type UserRow } from "#api/services/users";
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

/** A user another caller may see: staff see everyone, everyone else only themself. */
async function visibleUser(db: Executor, caller: AuthUser, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound("No encontrado.");
  if (!isStaff(caller.role) && caller.id !== id.toLowerCase()) throw notFound("No encontrado.");
  const user = await findUser(db, id.toLowerCase());
  if (!user) throw notFound("No encontrado.");
  return user;
}

/** djoser's /auth/users/ endpoints, with a 6-digit mailed code as the token. */
export function authUsersRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();
  const codeLimit = rateLimit({ name: "account-mail", windowMs: 3600_000, max: 30, message: "Has pedido demasiados correos. Espera un rato." });

  router.post(
    "/auth/users/",
    codeLimit,
    handle(async (req, res) => {
      const body = parseInput(
        z.object({ email: EmailField, password: PasswordField, re_password: z.string(), ...Names }).refine(passwordsMatch, mismatch),
        req.body,
      );
      await requireCaptcha(config, req.body, body.email, clientAddress(req));
      const existing = await findUserByEmail(db, body.email);
      if (existing) throw new HttpError(400, "Ya existe una cuenta con este correo. Entra con un código o recupera la contraseña.", { errors: { email: ["Ya existe una cuenta con este correo."] } });
      const passwordHash = await hashPassword(body.password);
      const [user] = await db
        .insert(users)
        .values({ email: body.email, passwordHash, isActive: false, firstName: body.first_name ?? "", lastName: body.last_name ?? "" })
        .onConflictDoNothing()
        .returning();
      if (!user) throw badRequest("Ya existe una cuenta con este correo.");
      await sendCode(db, config, { email: user.email, purpose: "activation", userId: user.id });
      res.status(201).json(userAnswer(user));
    }),
  );

  router.post(
    "/auth/users/activation/",
    handle(async (req, res) => {
      const body = parseInput(z.object({ ...UserRef, token: CodeField }).refine(hasRef, oneRef), req.body);
      const user = await referencedUser(db, body);
      // An unknown address gets the same answer as a wrong code: the form does not tell who has an account.
      if (!user) throw badRequest("El código ha caducado o ya se ha usado. Pide uno nuevo.");
      if (user.isActive && user.emailVerifiedAt) throw new HttpError(403, "Esta cuenta ya está activada.");
      const check = await checkCode(db, config, { email: user.email, purpose: "activation", code: body.token, consume: true });
      if (!check.valid) throw badRequest(codeProblem(check));
      // The code proves the address, as a code login does: the person is logged in straight away
      // (djoser answers 204 here; the tokens in a 200 are what the registration page needs).
      const pair = await db.transaction(async (tx) => {
        const [active] = await tx.update(users).set({ isActive: true, emailVerifiedAt: user.emailVerifiedAt ?? new Date() }).where(eq(users.id, user.id)).returning();
        await claimGuestPurchases(tx, active);
        await markLoggedIn(tx, active.id);
        return issueTokens(tx, config, active);
      });
      res.status(200).json(pair);
    }),
  );

  router.post(
    "/auth/users/resend_activation/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      const user = await findUserByEmail(db, email);
      // The same answer either way: the form does not tell who has an account.
      if (user && !user.isActive) await sendCode(db, config, { email, purpose: "activation", userId: user.id });
      res.status(204).end();
    }),
  );

  router.post(
    "/auth/users/reset_password/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      const user = await findUserByEmail(db, email);
      if (user) await sendCode(db, config, { email, purpose: "reset_password", userId: user.id });
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
      if (!user) throw badRequest("El código ha caducado o ya se ha usado. Pide uno nuevo.");
      const check = await checkCode(db, config, { email: user.email, purpose: "reset_password", code: body.token, consume: true });
      if (!check.valid) throw badRequest(codeProblem(check));
      const passwordHash = await hashPassword(body.new_password);
      await db.transaction(async (tx) => {
        // The mailed code proves the address, so the account is active from here on.
        await tx.update(users).set({ passwordHash, isActive: true, emailVerifiedAt: user.emailVerifiedAt ?? new Date() }).where(eq(users.id, user.id));
        await revokeAllRefreshTokens(tx, user.id);
      });
      res.status(204).end();
    }),
  );

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
      await db.update(users).set({ passwordHash: await hashPassword(body.new_password) }).where(eq(users.id, user.id));
      res.status(204).end();
    }),
  );

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
      if (await findUserByEmail(db, body.new_email)) throw badRequest("Ya existe una cuenta con ese correo.");
      // The new address must prove itself: the code goes there, and reset_email_confirm applies it.
      await sendCode(db, config, { email: user.email, purpose: "reset_email", userId: user.id, newEmail: body.new_email, mailTo: body.new_email });
      res.status(202).json({ detail: "Te hemos enviado un código al nuevo correo para confirmarlo." });
    }),
  );

  router.post(
    "/auth/users/reset_email/",
    codeLimit,
    handle(async (req, res) => {
      const { email } = parseInput(z.object({ email: EmailField }), req.body);
      const user = await findUserByEmail(db, email);
      if (user) await sendCode(db, config, { email, purpose: "reset_email", userId: user.id });
      res.status(204).end();
    }),
  );

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
      if (!user) throw badRequest("Enlace no válido.");
      const check = await checkCode(db, config, { email: user.email, purpose: "reset_email", code: body.token, consume: true });
      if (!check.valid) throw badRequest(codeProblem(check));
      // set_email fixed the new address when it sent the code; reset_email leaves it to this call.
      if (check.newEmail && check.newEmail !== body.new_email) throw badRequest("El correo no es el que pediste confirmar.");
      if (await findUserByEmail(db, body.new_email)) throw badRequest("Ya existe una cuenta con ese correo.");
      const pair = await db.transaction(async (tx) => {
        const [changed] = await tx.update(users).set({ email: body.new_email, emailVerifiedAt: check.newEmail ? new Date() : null }).where(eq(users.id, user.id)).returning();
        await revokeAllRefreshTokens(tx, user.id);
        // After set_email the code came to the new address the logged-in person asked for: they get
        // a fresh pair for the new email, so changing it on /cuenta does not log them out.
        return check.newEmail ? issueTokens(tx, config, changed) : null;
      });
      if (pair) res.status(200).json(pair);
      else res.status(204).end();
    }),
  );

  const Update = z.object({ ...Names }).strict();
  const StaffUpdate = z.object({ ...Names, is_active: z.boolean().optional(), role: z.enum(ROLES).optional() }).strict();

  async function update(req: Request, target: UserRow, partial: boolean) {
    const caller = requireUser(req);
    const schema = isStaff(caller.role) ? StaffUpdate : Update;
    const body = parseInput(partial ? schema : schema.required({ first_name: true, last_name: true }), req.body) as z.infer<typeof StaffUpdate>;
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
    if (body.is_active === false || body.role !== undefined) await revokeAllRefreshTokens(db, target.id);
    return userAnswer(row);
  }

  router.get(
    "/auth/users/",
    handle(async (req, res) => {
      const caller = requireUser(req);
      // djoser lists every user to staff and only yourself to anyone else.
      const rows = isStaff(caller.role) ? await db.select().from(users).orderBy(users.createdAt).limit(500) : [await findUser(db, caller.id)].flatMap((u) => (u ? [u] : []));
      res.json(rows.map(userAnswer));
    }),
  );

  for (const path of ["/auth/users/me/", "/auth/users/:id/"]) {
    const target = async (req: Request) => {
      const caller = requireUser(req);
      return visibleUser(db, caller, req.params.id ?? caller.id);
    };
    router.get(path, handle(async (req, res) => res.json(userAnswer(await target(req)))));
    router.put(path, handle(async (req, res) => res.json(await update(req, await target(req), false))));
    router.patch(path, handle(async (req, res) => res.json(await update(req, await target(req), true))));
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
