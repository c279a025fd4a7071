import { PRELOAD_STALE_MS } from "#rules/constants";

/**
 * An offer's data fetched when its link was hovered or touched, for the click that follows: used
 * once, within PRELOAD_STALE_MS (spec section 9: preload stale time 30 s, offer cache time 0).
 * The offer page is never stored by the browser (its stock is live), so a prefetch left to the
 * browser was thrown away and the click asked again.
 */
const kept = new Map<string, { at: number; data: Promise<unknown> }>();
const asked = new Set<string>();

/** The next load of `path` is a prefetch: its answer is kept for the click. */
export function prefetchNext(path: string): void {
  asked.add(path);
}

/** For the offer route's clientLoader: a prefetch is loaded and kept; a navigation takes what was kept, or loads. */
export function keptOrLoaded<T>(path: string, load: () => Promise<T>): Promise<T> {
  if (asked.delete(path)) {
    const data = load();
    kept.set(path, { at: Date.now(), data });
    data.catch(() => kept.delete(path));
    return data;
  }
  const entry = kept.get(path);
  kept.delete(path);
  return entry && Date.now() - entry.at < PRELOAD_STALE_MS ? (entry.data as Promise<T>) : load();
}
