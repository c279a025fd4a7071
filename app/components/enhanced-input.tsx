import { useHydrated } from "remix-utils/use-hydrated";
import { ENHANCED_FIELD } from "#app/lib/enhanced";

/** Present only once React runs: tells the action this post came from a fetcher. */
export function EnhancedInput() {
  return useHydrated() ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
