import { ENHANCED_FIELD } from "#app/forms/enhanced";

/**
 * The server renders the field disabled, so a post made before React runs (or without it) does
 * not send it; React's commit enables it. Not useHydrated(): that renders its component again
 * right after hydration, synchronously, in the task that runs the page's effects, and this field
 * is in the header of every page (the region and the cart).
 */
const enable = (input: HTMLInputElement | null) => {
  if (input) input.disabled = false;
};

/** Sent once React runs: tells the action this post came from a fetcher. */
export function EnhancedInput() {
  return <input type="hidden" name={ENHANCED_FIELD} value="1" disabled ref={enable} />;
}
