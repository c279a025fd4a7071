import { useHydrated } from "remix-utils/use-hydrated";

/** Present only once React runs: tells the action this post came from a fetcher. */
export function EnhancedInput() {
  return useHydrated() ? <input type="hidden" name="_enhanced" value="1" /> : null;
}
