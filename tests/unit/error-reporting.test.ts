// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#platform/config.server";
import { thirdPartySources } from "#app/document/third-party-csp.server";
import { errorReportingEnvironment, scrubEvent } from "#platform/error-reporting.server";
import { loggablePath } from "#platform/logger.server";
import { statementName } from "#platform/loggable-error.server";

const base = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret-for-the-sentry-test-0123456789",
  DATA_DIR: "/tmp/ofertas-test-unused",
} as const;

describe("SENTRY_DSN", () => {
  it("refuses at start what is not a Sentry DSN, naming the setting", () => {
    for (const dsn of [
      "sentry",
      "https://o1.ingest.sentry.io/42",
      "https://abc@o1.ingest.sentry.io/",
      "ftp://abc@host/1",
      "https://abc@host/1?x=1",
    ]) {
      expect(() => loadConfig({ ...base, SENTRY_DSN: dsn }), dsn).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, SENTRY_DSN: dsn }), dsn).toThrow(/SENTRY_DSN: debe ser el DSN de Sentry/);
    }
  });

  it("takes a DSN, on a path too (self-hosted); empty is off", () => {
    expect(loadConfig({ ...base, SENTRY_DSN: "https://abc123@o1.ingest.sentry.io/42" }).SENTRY_DSN).toBe(
      "https://abc123@o1.ingest.sentry.io/42",
    );
    expect(loadConfig({ ...base, SENTRY_DSN: "http://key@127.0.0.1:9000/sentry/7" }).SENTRY_DSN).toBe("http://key@127.0.0.1:9000/sentry/7");
    expect(loadConfig({ ...base, SENTRY_DSN: " " }).SENTRY_DSN).toBeUndefined();
  });

  it("adds the DSN's origin to connect-src only when set", () => {
    expect(thirdPartySources(loadConfig(base)).connect).toEqual([]);
    expect(thirdPartySources(loadConfig({ ...base, SENTRY_DSN: "https://abc@o1.ingest.sentry.io/42" })).connect).toEqual([
      "https://o1.ingest.sentry.io",
    ]);
  });

  it("files events under SENTRY_ENVIRONMENT, else the deployment mode", () => {
    expect(errorReportingEnvironment(loadConfig(base))).toBe("test");
    expect(errorReportingEnvironment(loadConfig({ ...base, SENTRY_ENVIRONMENT: "staging" }))).toBe("staging");
    expect(
      errorReportingEnvironment(
        loadConfig({
          ...base,
          NODE_ENV: "production",
          PUBLIC_URL: "https://ofertas.example",
          PAYMENT_PROVIDER: "sandbox",
          MAIL_TO_FILES: "1",
        }),
      ),
    ).toBe("production");
  });
});

describe("scrubEvent", () => {
  it("keeps no cookie, header, user, address or token", () => {
    const event = scrubEvent({
      type: undefined,
      message: "Fallo para ana@example.com",
      user: { id: "u1", email: "ana@example.com", ip_address: "10.0.0.1" },
      request: {
        url: "https://ofertas.example/cuenta/verificar?token=secreto123&page=2",
        cookies: { __session: "abc" },
        headers: { cookie: "__session=abc", authorization: "Bearer xyz" },
        query_string: "token=secreto123",
        data: { email: "ana@example.com" },
      },
      exception: { values: [{ type: "Error", value: "No existe ana@example.com", stacktrace: { frames: [{ vars: { password: "x" } }] } }] },
    });
    const text = JSON.stringify(event);
    for (const secret of ["ana@example.com", "secreto123", "__session", "Bearer", "10.0.0.1", "password"])
      expect(text).not.toContain(secret);
    expect(event.request).toEqual({ url: "https://ofertas.example/cuenta/verificar?token=[redacted]&page=2" });
    expect(event.exception?.values?.[0].value).toBe("No existe [email]");
  });
});

describe("a query's values never leave", () => {
  it("an uncaught query error's text is its statement alone", () => {
    const event = scrubEvent({
      type: undefined,
      exception: {
        values: [
          {
            type: "Error",
            value:
              'Failed query: insert into "sales" ("email", "checkout_data") values ($1, $2)\nparams: ana@example.com,{"user_tax_number":"12345678Z"}',
          },
        ],
      },
    });
    expect(event.exception?.values?.[0].value).toBe("Consulta fallida (insert into sales)");
  });

  it("logged paths: transaction ids, in a query or naming the sandbox's page, and addresses are redacted", () => {
    expect(loggablePath("/order/success?transaction_id=9b1d5c3e-0000-4000-8000-000000000001&x=1")).toBe(
      "/order/success?transaction_id=[redacted]&x=1",
    );
    expect(loggablePath("/api/v0/sandbox/checkout/9b1d5c3e-0000-4000-8000-000000000001/")).toBe("/api/v0/sandbox/checkout/[redacted]/");
    expect(loggablePath("/buscar?q=ana%40correo.es")).toBe("/buscar?q=[email]");
  });

  it("statement names: verb and table, nothing else", () => {
    expect(statementName('update "users" set "role" = $1 where "users"."id" = $2')).toBe("update users");
    expect(statementName('select "id" from "offers" where "slug" = $1')).toBe("select from offers");
    expect(statementName('delete from "sessions" where "user_id" = $1')).toBe("delete from sessions");
    expect(statementName("with x as (select 1) insert into sale_items select * from x")).toBe("insert into sale_items");
  });
});
