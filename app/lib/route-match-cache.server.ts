import { createRequire } from "node:module";

/**
 * Remix matches a page's URL against the route tree four times per request (the request handler,
 * the static handler, the <Scripts> manifest and React Router's render), and each time React
 * Router flattens and ranks all ~50 routes and compiles a regular expression per route it tries,
 * from scratch: 15 % of the server's CPU for the home page. The answer depends only on the shape
 * of the tree (ids, paths, index and case flags) and on the path, so it is kept here per shape and
 * path, and each call gets fresh match objects that point at the route objects it was given.
 *
 * Installed over @remix-run/router's exported matchRoutes, which its three outside callers read
 * at call time; the static handler's own call inside the module keeps the original. A tree
 * without ids, or one whose ids do not resolve, goes to the original as well.
 */

type Route = { id?: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: Route };
type MatchRoutes = (routes: Route[], location: string | { pathname?: string }, basename?: string) => Match[] | null;
type Kept = { id: string; params: Record<string, string | undefined>; pathname: string; pathnameBase: string }[] | null;

/** Paths remembered per tree shape, oldest forgotten first: whatever URLs a crawler tries. */
const MAX_PATHS = 2_000;

const shapes = new WeakMap<Route[], { shape: string; byId: Map<string, Route> } | null>();
const answers = new Map<string, Map<string, Kept>>();

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
    if (!byPath) answers.set(tree.shape, (byPath = new Map()));
    const key = `${basename ?? "/"}\u0000${path.split(/[?#]/, 1)[0]}`;
    let kept = byPath.get(key);
    if (kept === undefined) {
      const matches = original(routes, location, basename);
      kept = matches && matches.map((m) => ({ id: m.route.id as string, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase }));
      if (byPath.size >= MAX_PATHS) byPath.delete(byPath.keys().next().value as string);
      byPath.set(key, kept);
      return matches;
    }
    return kept && kept.map((m) => ({ params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase, route: tree.byId.get(m.id) as Route }));
  };
}

let installed = false;

/** Puts the cache in front of @remix-run/router's matchRoutes, once per process. */
export function installRouteMatchCache() {
  if (installed) return;
  installed = true;
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes };
  router.matchRoutes = cachedMatchRoutes(router.matchRoutes);
}
