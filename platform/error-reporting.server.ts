/**
 * Optional error reporting (SENTRY_DSN): server faults go to a Sentry-compatible service, with
 * the request's id and route as tags and nothing that identifies a person. Unset, the SDK is
 * never imported. The reporter lives on a global slot because the host (build/node) and the
 * storefront's build (build/server) each bundle their own copy of this module.
 */
import type { ErrorEvent as SentryEvent } from "@sentry/node";
import type { Config } from "#platform/config.server";
import { currentRequestId, loggablePath, logger } from "#platform/logger.server";
import { withoutAddresses } from "#rules/error-reports";
import { loggableError, loggableErrorText } from "#platform/loggable-error.server";

export type ErrorTags = { reqId?: string; route?: string; source: "storefront" | "api" | "mail" | "analytics" };

type Reporter = { capture: (error: unknown, tags: ErrorTags) => void; flush: (timeoutMs: number) => Promise<boolean> };

const SLOT = Symbol.for("ofertas.error-reporting");
const slot = globalThis as { [SLOT]?: Reporter };

/** What the SDK may collect beyond the error itself: nothing. */
const NO_PERSONAL_DATA = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [],
  urlQueryParams: false,
  stackFrameVariables: false,
  databaseQueryData: false,
};

/** Starts the SDK when SENTRY_DSN is set; without it nothing is loaded and capture does nothing. */
export async function startErrorReporting(
  config: Pick<Config, "SENTRY_DSN" | "SENTRY_ENVIRONMENT" | "SENTRY_RELEASE" | "isDeployment" | "NODE_ENV">,
) {
  if (!config.SENTRY_DSN || slot[SLOT]) return;
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: config.SENTRY_DSN,
    environment: errorReportingEnvironment(config),
    release: config.SENTRY_RELEASE,
    // Nothing about the person or their request (the SDK's successor to sendDefaultPii: false).
    dataCollection: NO_PERSONAL_DATA,
    // Only what is listed below: no tracing, no profiling, nothing that rewrites Express or http.
    defaultIntegrations: false,
    enableOpenTelemetrySetup: false,
    enableRuntimeChannelInjection: false,
    integrations: [
      Sentry.onUncaughtExceptionIntegration(),
      // As Node without a listener: an unhandled rejection ends the process, reported first.
      Sentry.onUnhandledRejectionIntegration({ mode: "strict" }),
      Sentry.linkedErrorsIntegration(),
      Sentry.dedupeIntegration(),
    ],
    maxBreadcrumbs: 0,
    beforeSend: (event) => scrubEvent(event),
  });
  slot[SLOT] = {
    capture(error, tags) {
      Sentry.withScope((scope) => {
        scope.setTags({ source: tags.source, reqId: tags.reqId ?? currentRequestId(), route: tags.route });
        // A database error without its query's values (loggable-error.server.ts).
        Sentry.captureException(loggableError(error));
      });
    },
    flush: (timeoutMs) => Sentry.flush(timeoutMs),
  };
  logger.info({ environment: errorReportingEnvironment(config) }, "Informe de errores activado (SENTRY_DSN).");
}

/** SENTRY_ENVIRONMENT, or what the deployment mode says. */
export function errorReportingEnvironment(config: Pick<Config, "SENTRY_ENVIRONMENT" | "isDeployment" | "NODE_ENV">): string {
  return config.SENTRY_ENVIRONMENT ?? (config.isDeployment ? "production" : config.NODE_ENV);
}

/** Reports a fault the server could not handle; nothing when error reporting is off. */
export function reportError(error: unknown, tags: ErrorTags): void {
  slot[SLOT]?.capture(error, tags);
}

/** Sends what is still queued, waiting at most `timeoutMs` (the draining shutdown calls it). */
export async function flushErrorReports(timeoutMs: number): Promise<void> {
  await slot[SLOT]?.flush(timeoutMs);
}

/**
 * What leaves the server: no cookies, headers, body, user or IP; the URL without the values of
 * token links' parameters; addresses in messages replaced; a query's values never. Exported for
 * its unit test.
 */
export function scrubEvent(event: SentryEvent): SentryEvent {
  delete event.user;
  delete event.breadcrumbs;
  delete event.extra;
  delete event.server_name;
  if (event.request) {
    const url = event.request.url;
    event.request = url ? { url: redactUrl(url) } : {};
  }
  for (const exception of event.exception?.values ?? []) {
    for (const frame of exception.stacktrace?.frames ?? []) delete frame.vars;
    // What reached the SDK without reportError (an uncaught error): no query's values either.
    if (exception.value) exception.value = loggableErrorText(exception.value);
  }
  if (event.message) event.message = loggableErrorText(event.message);
  return withoutAddresses(event);
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${loggablePath(parsed.pathname + parsed.search)}`;
  } catch {
    return loggablePath(url);
  }
}
