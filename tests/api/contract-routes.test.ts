/**
 * Every route of /api/v0 has its answer in the contract (contract/routes.ts), and the contract
 * names no route the API does not have: the table the API's tests and the storefront's client
 * parse with cannot fall behind the routers.
 */
import { describe, expect, it } from "vitest";
import type { Router } from "express";
import { createApi } from "#api/index";
import { loadConfig } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { RESPONSES, routeOf } from "#contract/routes";

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  regexp: RegExp & { fast_slash?: boolean };
};

/** Express 4 keeps a mounted router's path only as a regular expression: `^\/public\/offers\/?(?=\/|$)`. */
const mountPath = (layer: Layer) =>
  layer.regexp.fast_slash ? "" : layer.regexp.source.replace(/^\^/, "").replace("\\/?(?=\\/|$)", "").replace(/\\\//g, "/");

function routesOf(stack: Layer[], prefix = ""): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${prefix}${layer.route!.path}`);
    if (layer.handle?.stack) return routesOf(layer.handle.stack, prefix + mountPath(layer));
    return [];
  });
}

describe("the contract's table of answers", () => {
  const config = loadConfig({
    NODE_ENV: "test",
    SESSION_SECRET: "test-secret-for-the-api-suite-0123456789",
    DATA_DIR: "/tmp/ofertas-test-unused",
  });
  // Building the routers touches no database; only requests do.
  const api = createApi({ db: {} as Database, config, log: () => {} }) as Router & { stack: Layer[] };
  const routes = routesOf(api.stack);

  it("finds the routers' routes", () => {
    expect(routes.length).toBeGreaterThan(90);
    expect(routes).toContain("GET /public/offers/:id/");
  });

  it("has a schema (or the kind of answer) for every route of the API", () => {
    expect(routes.filter((r) => !(r in RESPONSES))).toEqual([]);
  });

  it("names no route the API does not have", () => {
    expect(Object.keys(RESPONSES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it("matches a call to its route, a fixed segment before a parameter", () => {
    expect(routeOf("GET", "/public/offers/mainpage/?page=2")?.route).toBe("GET /public/offers/mainpage/");
    expect(routeOf("GET", "/public/offers/6c1f0000-0000-4000-8000-000000000000/")?.route).toBe("GET /public/offers/:id/");
    expect(routeOf("POST", "/public/offers/6c1f/")).toBeUndefined();
  });
});
