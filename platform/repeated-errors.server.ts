import { logger } from "#platform/logger.server";

/**
 * A fault that repeats (every request while the database is down: hundreds a second) is logged
 * whole the first time; the same kind again within the interval is only counted, and one line at
 * the end of each interval says how many more there were. A kind that stops repeating is logged
 * whole again the next time it happens.
 */
export function repeatedErrors({ intervalMs = 10_000, summary = defaultSummary } = {}) {
  const counting = new Map<string, number>();
  const close = (kind: string) => {
    const count = counting.get(kind) ?? 0;
    if (count === 0) return void counting.delete(kind);
    summary(kind, count, intervalMs);
    counting.set(kind, 0);
    setTimeout(() => close(kind), intervalMs).unref();
  };
  return {
    /** True when this occurrence of `kind` should be logged in full; false when it was counted. */
    first(kind: string): boolean {
      const count = counting.get(kind);
      if (count !== undefined) {
        counting.set(kind, count + 1);
        return false;
      }
      counting.set(kind, 0);
      setTimeout(() => close(kind), intervalMs).unref();
      return true;
    },
  };
}

function defaultSummary(kind: string, count: number, intervalMs: number) {
  logger.error(
    { kind, repeated: count, seconds: intervalMs / 1000 },
    `El mismo error se ha repetido ${count} ${count === 1 ? "vez" : "veces"} más en ${intervalMs / 1000} s (${kind}).`,
  );
}
