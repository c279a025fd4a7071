/**
 * Property-based fuzzing of every /api/v0 route (the contract's declarations, so new routes are
 * fuzzed without editing this file): hostile path segments, queries, headers and bodies. No
 * answer may be a 5xx or show a stack trace. Bounded (FUZZ_RUNS, default 1,500 requests) with a
 * fixed seed (FUZZ_SEED) that is printed on failure. CI runs it on PGlite and on PostgreSQL.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROUTES } from "#contract/routes";
import type { RouteSpec } from "#contract/define-route";
import { seedUuid } from "#api/db/seed";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { FUZZ_SEED, hostileText, hostileValue, jsonText, pathSegment, problemWith, queryString } from "#tests/support/fuzz";
import { makeOption, newEmail, sessionFor, startSale } from "./_helpers";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

let api: TestApi;
const routes: RouteSpec[] = ROUTES;
const known: Record<string, string[]> = { id: [], provider: ["sandbox", "paypal", "rapyd", "allpay"] };
let sessionToken = "";

beforeAll(async () => {
  api = await startTestApi();
  // Real ids and tokens in the mix, so some requests get past the first checks.
  const option = await makeOption(api, { available: 1000 });
  const payment = await startSale(api, [{ option }], newEmail("fuzz"));
  sessionToken = await sessionFor(api, [{ option }], newEmail("fuzz"));
  known.id = [seedUuid("offer", "paella-marinera-barceloneta"), option.uuid, payment.sale_id, payment.transaction_id];
}, 120_000);
afterAll(() => api.close());

it("knows the API's routes", () => {
  const paths = routes.map((r) => `${r.method} ${r.path}`);
  expect(paths).toContain("GET /public/offers/");
  expect(paths).toContain("POST /sales/validate/");
  expect(paths).toContain("POST /:provider/webhook/");
  expect(paths).toContain("POST /sandbox/checkout/:id/");
});

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "application/vnd.api+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
];

it(`${RUNS} hostile requests over every route: never a 5xx, never a stack trace`, async () => {
  const param = (name: string) => fc.oneof(fc.constantFrom(...(known[name] ?? known.id)), hostileText());
  const request = fc.record({
    route: fc.constantFrom(...routes),
    params: fc
      .dictionary(fc.constantFrom("id", "provider"), fc.constant(null))
      .chain(() => fc.record({ id: param("id"), provider: param("provider") })),
    // Mostly the route's own method, sometimes another one.
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") },
    ),
    query: fc.array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom("search", "category", "region", "page", "page_size", "uuids", "transaction_id") },
          { weight: 1, arbitrary: hostileText() },
        ),
        hostileText(),
      ),
      { maxLength: 4 },
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    body: fc.oneof(
      // Shaped like the real bodies, with hostile values in the fields.
      fc
        .record({
          items: fc.array(
            fc.record({
              offer_price_uuid: param("id"),
              quantity: hostileValue(),
              saved_price: hostileValue(),
              slot_id: hostileValue(),
              promo_codes: fc.array(hostileText(), { maxLength: 6 }),
            }),
            { maxLength: 3 },
          ),
          checkout_data: fc.record({
            email: fc.oneof(fc.constant(newEmail("fuzz")), hostileText()),
            subs_agreement: hostileValue(),
            need_receipt: hostileValue(),
            for_present: hostileValue(),
            user_fullname: hostileText(),
          }),
        })
        .map(jsonText),
      fc
        .record(
          {
            session_token: fc.oneof(fc.constant(sessionToken), hostileText()),
            transaction_id: param("id"),
            promo_code: hostileText(),
            email: hostileText(),
            password: hostileText(),
            refresh: hostileText(),
            token: hostileText(),
            action: hostileText(),
          },
          { requiredKeys: [] },
        )
        .map(jsonText),
      hostileValue().map(jsonText),
      // Not JSON at all, or truncated JSON.
      hostileText(),
      fc.constantFrom('{"items": [', "{'a': 1}", "\u0000", '{"__proto__": {"x": 1}}', "[".repeat(5000)),
    ),
    headers: fc.record(
      {
        "x-forwarded-for": fc.oneof(fc.ipV4(), hostileText()),
        authorization: fc.oneof(
          fc.constant("JWT abc.def.ghi"),
          hostileText().map((t) => `JWT ${t}`),
        ),
        "ofertas-sandbox-signature": hostileText(),
      },
      { requiredKeys: [] },
    ),
  });

  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const path = r.route.path.replace(/:(\w+)/g, (_, name: string) => pathSegment(name === "provider" ? r.params.provider : r.params.id));
      const query = queryString(r.query);
      const method = r.method ?? r.route.method;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(v)) headers[k] = v;
      if (r.contentType) headers["content-type"] = r.contentType;
      const url = `${api.url}${path}${query ? `?${query}` : ""}`;
      let response: Response;
      const send = () => fetch(url, { method, headers, body: method === "GET" ? undefined : r.body, redirect: "manual" });
      try {
        // A kept-alive connection that the server closed while idle fails once on reuse (a race of
        // the client's pool, not an answer of the server): send again on a new one.
        response = await send().catch(send);
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        throw new Error(`${method} ${url} [${JSON.stringify(headers)}] could not be sent or got no answer: ${String(cause ?? error)}`);
      }
      const text = await response.text();
      const problem = problemWith(response.status, text);
      if (problem) throw new Error(`${method} ${path}?${query}\n${r.body.slice(0, 200)}\n→ ${problem}`);
    }),
    {
      seed: FUZZ_SEED,
      numRuns: RUNS,
      endOnFailure: true,
      reporter: (details) => {
        if (details.failed)
          throw new Error(
            `Fuzz failed with seed ${details.seed} (FUZZ_SEED=${details.seed} to replay), path ${details.counterexamplePath}:\n${String(details.errorInstance)}`,
          );
      },
    },
  );
}, 600_000);
