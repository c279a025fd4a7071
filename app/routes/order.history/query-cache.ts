/**
 * The browser's data cache (spec section 9: data fresh for 1 minute, no retry), for the few
 * personal lists the spec names by key (section 7: the purchases, "cached under ORDER_HISTORY").
 * It lives in the page's memory only: a full page load (every payment comes back through one)
 * starts empty, and any form the visitor submits (log in, log out, buy, change the account)
 * empties it, so it never shows another person's list or hides a change they just made.
 */
export const DATA_FRESH_MS = 60_000;

type Entry = { at: number; value: unknown };
const entries = new Map<string, Entry>();

if (typeof window !== "undefined") {
  // Capture phase: before Remix turns the submit into a navigation or a fetcher call.
  window.addEventListener("submit", () => entries.clear(), true);
}

/** The cached answer under `key` while it is fresh; otherwise `load()`'s, kept for next time. */
export async function cached<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = entries.get(key);
  if (hit && now - hit.at < DATA_FRESH_MS) return hit.value as T;
  // A failed load is not kept and not retried (spec: failed queries are not retried).
  const value = await load();
  entries.set(key, { at: now, value });
  return value;
}

export function forget(key?: string): void {
  if (key) entries.delete(key);
  else entries.clear();
}
