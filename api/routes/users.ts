import { Router, type Request } from "express";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { PasswordField } from "#lib/accounts";
import type { Config } from "#lib/config.server";
import { isStaff, ROLES } from "#lib/roles";
import { isUuid } from "#lib/uuid";
import type { Database, Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest, handle, HttpError, notFound, parseInput } from "#api/http";
import { requireUser, type AuthUser } from "#api/auth/context";
import { checkPassword, hashPassword } from "#api/auth/passwords";
import { revokeAllRefreshTokens } from "#api/auth/tokens";
import { findUser, userAnswer, type UserRow } from "#api/services/users";
import { eraseUser } from "#api/services/user-admin";

const passwordsMatch = <T extends { password?: string; re_password?: string; new_password?: string; re_new_password?: string }>(v: T) =>
  (v.password === undefined || v.password === v.re_password) && (v.new_password === undefined || v.new_password === v.re_new_password);
const mismatch = { message: "Las contraseñas no coinciden.", path: ["re_password"] };

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
export function authUsersRouter({ db }: { db: Database; config: Config }): Router {
  const router = Router();






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
        throw badRequest("La contraseña actual no es correcta.", { current_password: ["La contraseña actual no es correcta."] });
      }
      await db.update(users).set({ passwordHash: await hashPassword(body.new_password) }).where(eq(users.id, user.id));
      res.status(204).end();
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
            throw badRequest("La contraseña actual no es correcta.", { current_password: ["La contraseña actual no es correcta."] });
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
