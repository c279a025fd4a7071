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

// The offline worker (app/offline/service-worker.ts: a buyer's coupons without a connection) is
// registered by a module of its own, imported once the app has started: none of it is in a page's
// first-load JavaScript, and a page without JavaScript works as it always did.
if (import.meta.env.PROD) {
  import("./offline/register").catch(() => {});
}
