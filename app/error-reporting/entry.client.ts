/**
 * Error reporting in the browser (SENTRY_DSN). A chunk no page imports: the server appends its
 * `<script type="module" data-sentry-dsn=…>` to a document only when the DSN is set
 * (entry.server.tsx), so without it no byte of this reaches a browser and the pages carry no code
 * for it. The SDK (sdk.client.ts) is imported once the page has loaded and the browser is idle;
 * errors before that are kept and sent then.
 *
 * What is reported: uncaught errors and unhandled rejections, and the errors the root
 * ErrorBoundary shows, which React 18 hands to console.error (an Error as the only argument) once
 * a boundary has caught them. No replay, no breadcrumbs, no user, no URL: the error, its stack and
 * the page's route id. Consent-free (error reporting, not analytics); it sets no cookie.
 */
type RemixRouter = { state: { matches: { route: { id: string } }[] } };

const settings = document.querySelector<HTMLScriptElement>("script[data-sentry-dsn]")?.dataset;

const early: unknown[] = [];
let send: ((error: unknown, route: string | undefined) => void) | null = null;

function report(error: unknown) {
  if (!send) return void early.push(error);
  send(error, (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter?.state.matches.at(-1)?.route.id);
}

function watch() {
  window.addEventListener("error", (event) => report(event.error ?? event.message));
  window.addEventListener("unhandledrejection", (event) => report(event.reason));
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && args[0] instanceof Error) report(args[0]);
    consoleError(...args);
  };
}

async function start(dsn: string) {
  const { startSdk } = await import("./sdk.client");
  send = startSdk({ dsn, environment: settings?.sentryEnvironment || undefined, release: settings?.sentryRelease || undefined });
  for (const error of early.splice(0)) report(error);
}

if (settings?.sentryDsn) {
  const dsn = settings.sentryDsn;
  watch();
  const later = () => {
    const idle = (window as { requestIdleCallback?: (fn: () => void, options?: { timeout: number }) => void }).requestIdleCallback;
    const go = () => void start(dsn).catch(() => {}); // a blocked SDK never breaks the shop
    if (idle) idle(go, { timeout: 5_000 });
    else setTimeout(go, 1_000);
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}
