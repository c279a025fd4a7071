import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// A new history entry gets the key its scroll position is saved under (ScrollRestoration leaves
// that to us, to keep its inline script off the first paint). Given before RemixBrowser creates the
// router, which reads the key as the location's; `idx: 0` is what the router would write in a
// second replaceState of its own.
if (!window.history.state?.key) {
  window.history.replaceState({ idx: 0, ...window.history.state, key: Math.random().toString(36).slice(2, 10) }, "");
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
