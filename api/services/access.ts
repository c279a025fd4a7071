import type { Request, RequestHandler, Response } from "express";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "#api/db/client";
import { organizationMembers } from "#api/db/schema";
import { handle, HttpError } from "#api/http";
import { partnerCan, type PartnerAction, type PartnerRole } from "#rules/partner-roles";

/** Who is calling, as the identity layer (api/auth/context) reads it from the JWT. */
export type Actor = { id: string; email: string; role: "customer" | "partner" | "staff" };
export type Identify = (req: Request) => Actor | null | Promise<Actor | null>;

/**
 * What a caller may see of the partner side: staff everything (`orgs: null`), a partner the
 * organisations it is a member of. Objects outside that answer 404, so a partner cannot even
 * learn that another organisation's offer or coupon exists.
 */
export type Scope = { actor: Actor; staff: boolean; orgs: string[] | null };

export const unauthenticated = () => new HttpError(401, "Inicia sesión para continuar.");
export const forbidden = () => new HttpError(403, "No tienes permiso para hacer esto.");

export async function actorOf(req: Request, identify: Identify): Promise<Actor> {
  const actor = await identify(req);
  if (!actor) throw unauthenticated();
  return actor;
}

export async function requireStaffActor(req: Request, identify: Identify): Promise<Actor> {
  const actor = await actorOf(req, identify);
  if (actor.role !== "staff") throw forbidden();
  return actor;
}

/** Each organisation the user is a member of, with the member's role there. */
export async function membershipsOf(db: Executor, userId: string): Promise<{ id: string; role: PartnerRole }[]> {
  return db
    .select({ id: organizationMembers.organizationId, role: organizationMembers.role })
    .from(organizationMembers)
    .where(eq(organizationMembers.userId, userId));
}

/**
 * Partners and staff; a customer is refused with 403 (the endpoint exists, it is not for them).
 * With an action (rules/partner-roles.ts), a partner's scope keeps only the organisations where
 * its role allows it, and a member whose role allows it nowhere is refused with 403: a cashier
 * asking for sales is told no, not shown an empty list.
 */
export async function partnerScope(db: Executor, req: Request, identify: Identify, action?: PartnerAction): Promise<Scope> {
  const actor = await actorOf(req, identify);
  if (actor.role === "staff") return { actor, staff: true, orgs: null };
  if (actor.role !== "partner") throw forbidden();
  const rows = await membershipsOf(db, actor.id);
  if (!action) return { actor, staff: false, orgs: rows.map((r) => r.id) };
  const allowed = rows.filter((r) => partnerCan(r.role, action));
  if (rows.length > 0 && allowed.length === 0) throw forbidden();
  return { actor, staff: false, orgs: allowed.map((r) => r.id) };
}

export function canSeeOrganization(scope: Scope, organizationId: string): boolean {
  return scope.orgs === null || scope.orgs.includes(organizationId);
}

/** A SQL condition limiting a query to the scope's organisations. */
export function inScope(scope: Scope, column: unknown) {
  if (scope.orgs === null) return sql`true`;
  if (scope.orgs.length === 0) return sql`false`;
  return sql`${column} IN (${sql.join(
    scope.orgs.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

/**
 * The caller's scope for an action, as middleware that runs before the route reads its input (a
 * stranger's call is a 401, 403 or 404 whatever it sends); `then` checks the object too. The
 * handler takes the scope with scopeOf(res).
 */
export function scopeFirst(
  db: Executor,
  identify: Identify,
  action?: PartnerAction,
  then?: (req: Request, scope: Scope) => Promise<unknown>,
): RequestHandler {
  return handle(async (req, res, next) => {
    const scope = await partnerScope(db, req, identify, action);
    await then?.(req, scope);
    res.locals.scope = scope;
    next();
  });
}
export const scopeOf = (res: Response): Scope => res.locals.scope as Scope;
