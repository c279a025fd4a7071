/**
 * The API registers every route the contract declares (contract/<resource>.ts), and only those:
 * `on()` (api/route.ts) is the one way a router takes a route, and the linter refuses
 * `router.get(…)` and its kin in api/routes.
 */
import { describe, expect, it } from "vitest";
import { createApi } from "#api/index";
import { registeredRoutes } from "#api/route";
import { loadConfig } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { ROUTES, routeOf } from "#contract/routes";
import { routeName } from "#contract/define-route";

describe("the contract's routes", () => {
  const config = loadConfig({
    NODE_ENV: "test",
    SESSION_SECRET: "test-secret-for-the-api-suite-0123456789",
    DATA_DIR: "/tmp/ofertas-test-unused",
  });
  // Building the routers touches no database; only requests do.
  createApi({ db: {} as Database, config, log: () => {} });

  it("are all registered by the API's routers", () => {
    expect(ROUTES.length).toBeGreaterThan(90);
    expect(ROUTES.filter((r) => !registeredRoutes().has(r)).map(routeName)).toEqual([]);
  });

  it("are each declared once", () => {
    const names = ROUTES.map(routeName);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("match a call to its route, a fixed segment before a parameter", () => {
    expect(routeName(routeOf("GET", "/public/offers/mainpage/?page=2")!)).toBe("GET /public/offers/mainpage/");
    expect(routeName(routeOf("GET", "/public/offers/6c1f0000-0000-4000-8000-000000000000/")!)).toBe("GET /public/offers/:id/");
    expect(routeOf("POST", "/public/offers/6c1f/")).toBeUndefined();
  });
});
