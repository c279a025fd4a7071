import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "#api/db/client";
import { offers } from "#api/db/schema";

/** «Cerca de aquí» as it was answered before its index: every active offer ranked by the distance in SQL. */
export async function nearbyByScan(db: Executor, id: string, limit: number): Promise<string[]> {
  const [origin] = await db.select({ latitude: offers.latitude, longitude: offers.longitude }).from(offers).where(eq(offers.id, id));
  if (origin?.latitude == null || origin.longitude == null) return [];
  const distance = sql`power(${offers.latitude} - ${origin.latitude}, 2) + power((${offers.longitude} - ${origin.longitude}) * cos(radians(${origin.latitude})), 2)`;
  const rows = await db
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.status, "active"), sql`${offers.id} <> ${id}`, sql`${offers.latitude} IS NOT NULL`))
    .orderBy(distance, asc(offers.rank))
    .limit(limit);
  return rows.map((r) => r.id);
}
