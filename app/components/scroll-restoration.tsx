import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router-dom";

/** Where the saved positions live in sessionStorage: Remix's own name, so positions saved before stay valid. */
const SCROLL_STORAGE_KEY = "positions";

/**
 * Puts a reloaded page, or one reached with back or forward, where the visitor left it before React
 * has hydrated it; after hydration the router keeps doing so for client navigations.
 *
 * Remix's <ScrollRestoration> does the same, but its inline script gives the history entry a key
 * and reads sessionStorage while the page is being parsed, on every load. Both are synchronous calls
 * into Chromium's browser process, which on a busy phone wait their turn: in Lighthouse's traces of
 * the home page that one small script held the main thread right at the first paint, which its
 * simulation multiplies. A new history entry has nothing to restore, so this script
 * only reads storage when the entry already has a key; `entry.client.tsx` gives new entries theirs
 * before the router reads it.
 */
export function ScrollRestoration({ nonce }: { nonce?: string }) {
  useScrollRestoration({ storageKey: SCROLL_STORAGE_KEY });
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: RESTORE }} />;
}

/**
 * Scrolls to the position saved for this history entry, if it has one. It runs in the browser as
 * its own source (`.toString()`), before hydration: it reads only its argument and the browser's
 * globals. `history.state.key` is where the router keeps an entry's key (ADR 025).
 */
export function restoreScroll(storageKey: string): void {
  const state = history.state as { key?: string } | null;
  if (!state || !state.key) return;
  try {
    const y = (JSON.parse(sessionStorage.getItem(storageKey) || "{}") as Record<string, unknown>)[state.key];
    if (typeof y == "number") scrollTo(0, y);
  } catch {
    try {
      sessionStorage.removeItem(storageKey);
    } catch {
      // Storage refused (private mode, quota): nothing to restore, nothing to clean.
    }
  }
}

const RESTORE = `(${restoreScroll.toString()})(${JSON.stringify(SCROLL_STORAGE_KEY)})`;
