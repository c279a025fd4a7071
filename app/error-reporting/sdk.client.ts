/**
 * The Sentry browser SDK, set up by hand: a client with only the integrations named here (init()'s
 * defaults wrap timers, fetch and history and record breadcrumbs). Imported by entry.client.ts
 * once the page is idle; named imports, so the bundle keeps only what this uses.
 */
import {
  BrowserClient,
  captureException,
  dedupeIntegration,
  defaultStackParser,
  getCurrentScope,
  linkedErrorsIntegration,
  makeFetchTransport,
  withScope,
  type ErrorEvent,
} from "@sentry/browser";
import { withoutAddresses } from "#rules/error-reports";

export type Settings = { dsn: string; environment?: string; release?: string };

/** No user, no URL or headers, no breadcrumbs; addresses in messages replaced. */
function scrub(event: ErrorEvent): ErrorEvent {
  delete event.user;
  delete event.request;
  delete event.breadcrumbs;
  return withoutAddresses(event);
}

/** Starts the client; returns how to report one error, tagged with the page's route id. */
export function startSdk(settings: Settings): (error: unknown, route: string | undefined) => void {
  const client = new BrowserClient({
    dsn: settings.dsn,
    environment: settings.environment,
    release: settings.release,
    transport: makeFetchTransport,
    stackParser: defaultStackParser,
    integrations: [linkedErrorsIntegration(), dedupeIntegration()],
    maxBreadcrumbs: 0,
    sendClientReports: false,
    beforeSend: scrub,
  });
  getCurrentScope().setClient(client);
  client.init();
  return (error, route) =>
    withScope((scope) => {
      scope.setTags({ source: "browser", route });
      captureException(error);
    });
}
