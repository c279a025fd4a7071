import { createRequire } from "node:module";
import { Recent } from "#lib/recent";

/**
 * Remix matches a page's URL against the route tree four times per request (the request handler,
 * the static handler, the <Scripts> manifest and React Router's render), and each time React
 * Router flattens and ranks all ~50 routes and compiles a regular expression per route it tries,
 * from scratch: 15 % of the server's CPU for the home page. The answer depends only on the shape
 * of the tree (ids, paths, index and case flags) and on the path, so it is kept here per shape and
 * path, and each call gets fresh match objects that point at the route objects it was given.
 *
 * Installed over @remix-run/router's exported matchRoutes, which its three outside callers read
 * at call time. A tree without ids, or one whose ids do not resolve, goes to the original. The
 * static handler's own call inside the module cannot be reached that way: see prunedStaticHandler.
 */

type Route = { id?: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: Route };
type MatchRoutes = (routes: Route[], location: string | { pathname?: string }, basename?: string) => Match[] | null;
type Kept = { id: string; params: Record<string, string | undefined>; pathname: string; pathnameBase: string }[] | null;

/** Paths remembered per tree shape, the least recently matched forgotten first: whatever URLs a crawler tries. */
const MAX_PATHS = 2_000;

const shapes = new WeakMap<Route[], { shape: string; byId: Map<string, Route> } | null>();
const answers = new Map<string, Recent<string, Kept>>();

function shapeOf(routes: Route[]) {
  let known = shapes.get(routes);
  if (known !== undefined) return known;
  const byId = new Map<string, Route>();
  let shape = "";
  let complete = true;
  const walk = (list: Route[]) => {
    for (const route of list) {
      if (!route.id || byId.has(route.id)) complete = false;
      else byId.set(route.id, route);
      shape += `${route.id}\u0000${route.path ?? ""}\u0000${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}(`;
      if (route.children) walk(route.children);
      shape += ")";
    }
  };
  walk(routes);
  known = complete ? { shape, byId } : null;
  shapes.set(routes, known);
  return known;
}

export function cachedMatchRoutes(original: MatchRoutes): MatchRoutes {
  return (routes, location, basename) => {
    const tree = Array.isArray(routes) ? shapeOf(routes) : null;
    if (!tree) return original(routes, location, basename);
    const path = typeof location === "string" ? location : location?.pathname;
    if (typeof path !== "string") return original(routes, location, basename);
    let byPath = answers.get(tree.shape);
    if (!byPath) answers.set(tree.shape, (byPath = new Recent(MAX_PATHS)));
    const key = `${basename ?? "/"}\u0000${path.split(/[?#]/, 1)[0]}`;
    let kept = byPath.get(key);
    if (kept === undefined) {
      const matches = original(routes, location, basename);
      kept = matches && matches.map((m) => ({ id: m.route.id as string, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase }));
      byPath.set(key, kept);
      return matches;
    }
    return kept && kept.map((m) => ({ params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase, route: tree.byId.get(m.id) as Route }));
  };
}

type StaticHandler = { dataRoutes: Route[]; query: (request: Request, options?: unknown) => Promise<unknown>; queryRoute: unknown };
type CreateStaticHandler = (routes: Route[], options?: { basename?: string }) => StaticHandler;

/** The part of `routes` that a match walks down: at each level, only the route matched there. */
function branchOf(routes: Route[], ids: string[], depth = 0): Route[] {
  const route = routes.find((r) => r.id === ids[depth]);
  if (!route) return [];
  return [{ ...route, children: depth + 1 < ids.length ? branchOf(route.children ?? [], ids, depth + 1) : undefined }];
}

/** Branches given a static handler of their own, at most: more than the shop has routes. */
const MAX_BRANCHES = 500;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * The static handler's query() (every page and every data request) matches the URL against the
 * whole tree with the module's own matchRoutes, which the cache above cannot replace: after the
 * cache took the other calls, that one was 7 % of the home page's server CPU. So a page is
 * queried on a static handler made for its branch alone (the routes it matched, found through
 * the cache), built once per branch: matching there tries one to three routes. The branch holds
 * the route the whole tree matched and only routes that did not match before it, so it matches
 * the same routes with the same params; loaders, actions and error bubbling see the same
 * matches. Anything else (no match: the 404; an unknown method; queryRoute for resource routes;
 * dataRoutes for the error render) is the whole tree's handler.
 */
export function prunedStaticHandler(create: CreateStaticHandler, matchRoutes: MatchRoutes): CreateStaticHandler {
  return (routes, options) => {
    const whole = create(routes, options);
    const branches = new Map<string, StaticHandler>();
    const query: StaticHandler["query"] = (request, queryOptions) => {
      const matches = METHODS.has(request.method) ? matchRoutes(routes, new URL(request.url).pathname, options?.basename) : null;
      const ids = matches?.map((m) => m.route.id as string);
      if (!ids) return whole.query(request, queryOptions);
      const key = ids.join("\u0000");
      let handler = branches.get(key);
      if (!handler) {
        if (branches.size >= MAX_BRANCHES) return whole.query(request, queryOptions);
        branches.set(key, (handler = create(branchOf(routes, ids), options)));
      }
      return handler.query(request, queryOptions);
    };
    return { ...whole, query };
  };
}

type CreateServerRoutes = (manifest: object, routeModules: object, future: object, isSpaMode: boolean, ...rest: unknown[]) => Route[];
type ConvertRoutes = (routes: Route[], mapRouteProperties: unknown, parentPath?: string[], manifest?: Record<string, Route>) => Route[];

/**
 * <RemixServer> builds the whole route tree for every page it renders, twice: Remix's server
 * routes from the build's manifest, then React Router's data routes from those (new objects for
 * all ~50 routes each time, ~0.15 ms and 6 % of the home page's server CPU). Both depend only on
 * the build, so the first tree is kept per manifest and modules, and the second per tree it was
 * made from. Rendering only reads them. Anything else (SPA mode, a subtree, other arguments) goes
 * to the original.
 */
export function keptServerRoutes(create: CreateServerRoutes): CreateServerRoutes {
  const kept = new WeakMap<object, { routeModules: object; future: object; routes: Route[] }>();
  return (manifest, routeModules, future, isSpaMode, ...rest) => {
    if (isSpaMode || rest.length) return create(manifest, routeModules, future, isSpaMode, ...rest);
    const known = kept.get(manifest);
    // Remix gathers the route modules into a new object for each request: the same modules.
    if (known && known.future === future && sameValues(known.routeModules, routeModules)) return known.routes;
    const routes = create(manifest, routeModules, future, isSpaMode);
    kept.set(manifest, { routeModules, future, routes });
    return routes;
  };
}

function sameValues(a: object, b: object): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

export function keptDataRoutes(convert: ConvertRoutes): ConvertRoutes {
  const kept = new WeakMap<Route[], { mapRouteProperties: unknown; routes: Route[]; manifest: Record<string, Route> }>();
  return (routes, mapRouteProperties, parentPath, manifest) => {
    if (parentPath !== undefined) return convert(routes, mapRouteProperties, parentPath, manifest);
    let known = kept.get(routes);
    if (!known || known.mapRouteProperties !== mapRouteProperties) {
      const byId: Record<string, Route> = {};
      known = { mapRouteProperties, routes: convert(routes, mapRouteProperties, undefined, byId), manifest: byId };
      kept.set(routes, known);
    }
    // The caller reads its routes by id from the manifest it passed in.
    if (manifest) Object.assign(manifest, known.manifest);
    return known.routes;
  };
}

let installed = false;

/**
 * Puts the caches in front of @remix-run/router's matchRoutes, createStaticHandler and
 * convertRoutesToDataRoutes, and of Remix's createServerRoutes, once per process. Each is read by
 * its callers from the module's exports at call time.
 */
export function installRouteMatchCache() {
  if (installed) return;
  installed = true;
  const require = createRequire(import.meta.url);
  const router = require("@remix-run/router") as {
    matchRoutes: MatchRoutes;
    createStaticHandler: CreateStaticHandler;
    UNSAFE_convertRoutesToDataRoutes: ConvertRoutes;
  };
  router.matchRoutes = cachedMatchRoutes(router.matchRoutes);
  router.createStaticHandler = prunedStaticHandler(router.createStaticHandler, router.matchRoutes);
  router.UNSAFE_convertRoutesToDataRoutes = keptDataRoutes(router.UNSAFE_convertRoutesToDataRoutes);
  // @remix-run/react has no exports map: its CommonJS build's own module, which <RemixServer> reads.
  const remixRoutes = require("@remix-run/react/dist/routes.js") as { createServerRoutes: CreateServerRoutes };
  remixRoutes.createServerRoutes = keptServerRoutes(remixRoutes.createServerRoutes);
}
