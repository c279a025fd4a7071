/**
 * The storefront's memory of public catalogue reads (listings, the home page list, nearby offers):
 * the spec's data freshness is one minute (section 9), so a read younger than that is answered
 * from memory, and an older one is answered stale while one request refreshes it in the
 * background. Keyed by the API URL, so every filter and page is its own entry. Only successful
 * answers are kept. Never used for the cart, the checkout, one offer's stock or anything personal:
 * the API decides every sale. Each process has its own copy; with several processes a listing can
 * differ between them for up to a minute, which the freshness rule allows.
 */
type Entry = { value: unknown; storedAt: number; refreshing: boolean };

export type PublicCache = {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
  readonly size: number;
};

export function createPublicCache(options: { freshMs: number; staleMs: number; maxEntries: number; now?: () => number }): PublicCache {
  const { freshMs, staleMs, maxEntries, now = Date.now } = options;
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<unknown>>();

  const store = (key: string, value: unknown) => {
    entries.delete(key); // re-inserting moves the key to the end: the Map is oldest-first
    entries.set(key, { value, storedAt: now(), refreshing: false });
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  };
  const loadOnce = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let pending = loading.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = load().then((value) => {
        store(key, value);
        return value;
      });
      loading.set(key, pending);
      const forget = () => loading.delete(key);
      pending.then(forget, forget);
    }
    return pending;
  };

  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (freshMs <= 0) return load();
      const entry = entries.get(key);
      const age = entry ? now() - entry.storedAt : Infinity;
      if (entry && age < freshMs) return entry.value as T;
      if (entry && age < freshMs + staleMs) {
        if (!entry.refreshing) {
          entry.refreshing = true;
          // A failed refresh keeps the stale answer and lets the next request try again.
          loadOnce(key, load).catch(() => {
            entry.refreshing = false;
          });
        }
        return entry.value as T;
      }
      return loadOnce(key, load);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
