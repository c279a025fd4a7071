/**
 * Registers the offline worker (service-worker.ts, served as /sw.js) when imported: entry.client.tsx
 * imports this module only once the app has started, so that none of it is in a page's first-load
 * JavaScript. Registered when the browser is idle: the worker's install fetches nothing the page
 * is waiting for.
 */
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => {});
  if ("requestIdleCallback" in window) requestIdleCallback(register);
  else setTimeout(register, 1000);
}

export {};
