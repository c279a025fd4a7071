/**
 * Error reporting (SENTRY_DSN) against a stand-in Sentry server: an API fault is one event, tagged
 * with the request's id and route, carrying no cookie, header, address or token; unset, the SDK
 * never starts and nothing is sent.
 */
import { randomUUID } from "node:crypto";
import express from "express";
import * as Sentry from "@sentry/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";
import { flushErrorReports, startErrorReporting } from "#platform/error-reporting.server";
import { createApi } from "#api/index";
import { requestLog } from "#server/request-log";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { listen } from "#tests/support/listen";
import { startSentryStandIn, type SentryStandIn } from "#tests/support/sentry";

let api: TestApi;
let sentry: SentryStandIn;
let site: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  api = await startTestApi();
  sentry = await startSentryStandIn();
  const app = express();
  // As server.ts mounts it: the request id first. Who is calling fails in a way the API cannot handle.
  app.use(requestLog);
  app.use(
    "/api/v0",
    createApi({
      db: api.db,
      config: api.config,
      log: () => {},
      identify: () => {
        throw new Error("No se pudo leer la sesión de ana.garcia@example.com");
      },
    }),
  );
  site = await listen(app);
});
afterAll(async () => {
  await site?.close();
  await sentry?.close();
  await api?.close();
});

/** A request that ends in a 500, carrying everything a report must leave out. */
async function faultyRequest(requestId: string) {
  const response = await fetch(`${site.origin}/api/v0/offers/images/?offer=${randomUUID()}&token=enlace-secreto-42`, {
    headers: {
      "X-Request-Id": requestId,
      Cookie: "__session=galleta-secreta",
      Authorization: "Bearer portador-secreto",
    },
  });
  expect(response.status).toBe(500);
}

describe("error reporting", () => {
  it("unset: no SDK is started and nothing is sent", async () => {
    await startErrorReporting(loadConfig({ ...envOf(api), SENTRY_DSN: "" }));
    expect(Sentry.getClient()).toBeUndefined();
    await faultyRequest("sin-informe-0123456789");
    await flushErrorReports(1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentry.envelopes).toEqual([]);
  });

  it("set: an API fault is exactly one event, with the request id and route, and nothing personal", async () => {
    await startErrorReporting(loadConfig({ ...envOf(api), SENTRY_DSN: sentry.dsn, SENTRY_RELEASE: "prueba-1" }));
    expect(Sentry.getClient()).toBeDefined();
    const requestId = "informe-0123456789";
    await faultyRequest(requestId);
    await flushErrorReports(5_000);
    const [event] = await sentry.waitForEvents(1);
    expect(sentry.events()).toHaveLength(1);
    expect(sentry.envelopes[0]).toMatchObject({ project: "7", key: "e2ekey" });
    expect(event.tags).toMatchObject({ reqId: requestId, route: "/api/v0/offers/images/", source: "api" });
    expect(event).toMatchObject({ environment: "test", release: "prueba-1" });
    expect(event.exception?.values?.[0].value).toBe("No se pudo leer la sesión de [email]");
    const raw = sentry.envelopes.map((e) => e.raw).join("\n");
    for (const secret of ["galleta-secreta", "portador-secreto", "enlace-secreto-42", "ana.garcia@example.com", '127.0.0.1"']) {
      expect(raw, secret).not.toContain(secret);
    }
  });
});

/** The settings as environment variables, for a second loadConfig. */
function envOf(test: TestApi): NodeJS.ProcessEnv {
  return { NODE_ENV: "test", SESSION_SECRET: test.config.sessionSecrets[0], DATA_DIR: "/tmp/ofertas-test-unused" };
}
