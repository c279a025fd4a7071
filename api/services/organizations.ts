import { and, asc, eq, sql } from "drizzle-orm";
import type { Organization } from "#contract/partner-responses";
import type { OrganizationInput } from "#contract/partner";
import { query, type Executor } from "#api/db/client";
import { organizationMembers, organizations } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { canSeeOrganization, inScope, type Scope } from "#api/services/access";

type Row = typeof organizations.$inferSelect;

export function toOrganization(o: Row): Organization {
  return {
    uuid: o.id,
    name: o.name,
    tax_id: o.taxId,
    email: o.email,
    phone: o.phone,
    website: o.website,
    address: o.address,
    province: o.province,
    logo: o.logo,
    created_at: o.createdAt.toISOString(),
  };
}

function toColumns(input: Partial<OrganizationInput>) {
  const columns: Partial<typeof organizations.$inferInsert> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.tax_id !== undefined) columns.taxId = input.tax_id;
  if (input.email !== undefined) columns.email = input.email;
  if (input.phone !== undefined) columns.phone = input.phone;
  if (input.website !== undefined) columns.website = input.website;
  if (input.address !== undefined) columns.address = input.address;
  if (input.province !== undefined) columns.province = input.province;
  if (input.logo !== undefined) columns.logo = input.logo;
  return columns;
}

/** A page of the organisations the caller may see, by name; `count` is all of them. */
export async function listOrganizations(db: Executor, scope: Scope, search: string | undefined, page: { page: number; pageSize: number }) {
  const where = and(
    inScope(scope, organizations.id),
    search ? sql`lower(${organizations.name}) LIKE ${`%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  );
  const [[count], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(organizations)
      .where(where),
    db
      .select()
      .from(organizations)
      .where(where)
      .orderBy(asc(organizations.name), asc(organizations.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
  ]);
  return { count: Number(count?.n ?? 0), results: rows.map(toOrganization) };
}

/** The organisation when the caller may see it; 404 otherwise (a partner never learns it exists). */
export async function findOrganization(db: Executor, scope: Scope, id: string): Promise<Row> {
  if (!canSeeOrganization(scope, id)) throw notFound("Empresa no encontrada.");
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  if (!row) throw notFound("Empresa no encontrada.");
  return row;
}

/** A partner who registers an organisation becomes its member; staff create it for others. */
export async function createOrganization(db: Executor, scope: Scope, input: OrganizationInput): Promise<Organization> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizations)
      .values({ ...toColumns(input), name: input.name })
      .returning();
    if (!scope.staff) await tx.insert(organizationMembers).values({ organizationId: row.id, userId: scope.actor.id, role: "owner" });
    return toOrganization(row);
  });
}

export async function updateOrganization(db: Executor, scope: Scope, id: string, input: Partial<OrganizationInput>): Promise<Organization> {
  await findOrganization(db, scope, id);
  const columns = toColumns(input);
  if (Object.keys(columns).length === 0) return toOrganization(await findOrganization(db, scope, id));
  const [row] = await db.update(organizations).set(columns).where(eq(organizations.id, id)).returning();
  return toOrganization(row);
}

/** Only an organisation that never published can go; one with offers keeps its sales' history. */
export async function deleteOrganization(db: Executor, scope: Scope, id: string): Promise<void> {
  await findOrganization(db, scope, id);
  const [used] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM offers WHERE organization_id = ${id}`);
  if (Number(used?.n) > 0) throw new HttpError(409, "Esta empresa tiene ofertas: archívalas en lugar de borrar la empresa.");
  await db.delete(organizations).where(eq(organizations.id, id));
}
