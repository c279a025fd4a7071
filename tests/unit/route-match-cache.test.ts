import { createRequire } from "node:module";
import { createStaticHandler, matchRoutes, UNSAFE_convertRoutesToDataRoutes, type StaticHandlerContext } from "@remix-run/router";
import { UNSAFE_mapRouteProperties } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { cachedMatchRoutes, keptDataRoutes, keptServerRoutes, prunedStaticHandler } from "#app/lib/route-match-cache.server";

type Route = Parameters<typeof matchRoutes>[0][number];
/** A tree shaped like the shop's: a root layout, an index, nested params and a splat. Fresh objects per call, as Remix builds per request. */
const tree = (): Route[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/ofertas._index", path: "ofertas" },
      { id: "routes/ofertas.$ofertaId", path: "ofertas/:ofertaId" },
      { id: "routes/socios", path: "socios", children: [{ id: "routes/socios.ofertas.$id", path: "ofertas/:id" }] },
      { id: "routes/$", path: "*" },
    ],
  },
];
const PATHS = ["/", "/ofertas/", "/ofertas/abc", "/ofertas/a%20b", "/socios/ofertas/7", "/nada/de/nada", "/Ofertas/x?q=1#h"];
const plain = (m: ReturnType<typeof matchRoutes>) => m?.map((x) => ({ id: x.route.id, params: x.params, pathname: x.pathname, pathnameBase: x.pathnameBase }));

describe("cachedMatchRoutes", () => {
  it("answers what React Router answers, twice over, pointing at the routes it was given", () => {
    const original = vi.fn(matchRoutes);
    const cached = cachedMatchRoutes(original as never);
    for (let round = 0; round < 2; round++) {
      for (const path of PATHS) {
        const routes = tree();
        const got = cached(routes as never, path);
        expect(plain(got as never)).toEqual(plain(matchRoutes(routes, path)));
        for (const m of got ?? []) expect(findById(routes, m.route.id as string)).toBe(m.route);
      }
    }
    // The second round came from the cache.
    expect(original).toHaveBeenCalledTimes(PATHS.length);
  });

  it("hands out fresh params each time, so a caller that changes them changes nothing else", () => {
    const cached = cachedMatchRoutes(matchRoutes as never);
    const first = cached(tree() as never, "/ofertas/abc")!;
    first.at(-1)!.params.ofertaId = "cambiado";
    expect(cached(tree() as never, "/ofertas/abc")!.at(-1)!.params.ofertaId).toBe("abc");
  });

  it("leaves a tree without ids, or another basename, to React Router", () => {
    const original = vi.fn(matchRoutes);
    const cached = cachedMatchRoutes(original as never);
    const anonymous = [{ path: "a" }, { path: "b" }] as never;
    cached(anonymous, "/a");
    cached(anonymous, "/a");
    expect(original).toHaveBeenCalledTimes(2);
    expect(plain(cached(tree() as never, "/tienda/ofertas/x", "/tienda") as never)).toEqual(plain(matchRoutes(tree(), "/tienda/ofertas/x", "/tienda")));
    expect(cached(tree() as never, "/ofertas/x", "/tienda")).toBeNull();
  });
});

/** The same tree with loaders and an action: each answers with its route id and params; one throws, one has a boundary. */
function withData(routes: Route[]): Route[] {
  return routes.map((route) => ({
    ...route,
    ...(route.id === "routes/ofertas.$ofertaId"
      ? {
          loader: ({ params }: { params: Record<string, string | undefined> }) => {
            if (params.ofertaId === "rota") throw new Response("no", { status: 418 });
            return { id: route.id, params };
          },
          action: () => ({ acted: route.id }),
        }
      : { loader: ({ params }: { params: Record<string, string | undefined> }) => ({ id: route.id, params }) }),
    ...(route.id === "root" ? { hasErrorBoundary: true } : {}),
    ...(route.children ? { children: withData(route.children) } : {}),
  })) as Route[];
}

const summary = (context: StaticHandlerContext | Response) =>
  context instanceof Response
    ? { response: context.status }
    : { status: context.statusCode, matches: plain(context.matches as never), loaderData: context.loaderData, actionData: context.actionData, errors: context.errors && Object.fromEntries(Object.entries(context.errors).map(([id, e]) => [id, (e as { status?: number }).status])) };

describe("prunedStaticHandler", () => {
  it("answers every page, a POST, a failing loader and a 404 as the whole tree's handler does", async () => {
    const create = vi.fn(createStaticHandler);
    const pruned = prunedStaticHandler(create as never, cachedMatchRoutes(matchRoutes as never));
    const routes = withData(tree());
    const whole = createStaticHandler(routes);
    const handler = pruned(routes as never);
    const requests = [...PATHS.map((p) => `http://x${p}`), "http://x/ofertas/rota"].map((url) => () => new Request(url));
    requests.push(() => new Request("http://x/ofertas/abc", { method: "POST", body: new URLSearchParams({ a: "1" }) }));
    for (let round = 0; round < 2; round++) {
      for (const request of requests) {
        expect(summary((await handler.query(request())) as StaticHandlerContext)).toEqual(summary(await whole.query(request())));
      }
    }
    // One handler for the whole tree, then one per branch pages were found on (not per request).
    const branches = new Set(PATHS.map((p) => plain(matchRoutes(routes, p))?.map((m) => m.id).join("/")).filter(Boolean));
    expect(create).toHaveBeenCalledTimes(1 + branches.size);
    // …each made of its branch alone: the tree has 7 routes, a branch at most 3.
    const count = (list: Route[]): number => list.reduce((n, r) => n + 1 + count(r.children ?? []), 0);
    for (const [given] of create.mock.calls.slice(1)) expect(count(given as Route[])).toBeLessThanOrEqual(3);
    expect(handler.dataRoutes).toHaveLength(1);
  });
});

// The module <RemixServer> reads createServerRoutes from (the cache is installed over it).
const { createServerRoutes } = createRequire(import.meta.url)("@remix-run/react/dist/routes.js") as { createServerRoutes: Parameters<typeof keptServerRoutes>[0] };

/** A build's route manifest and modules for tree(): what Remix hands <RemixServer> on each request. */
function build() {
  const manifest: Record<string, { id: string; parentId?: string; path?: string; index?: boolean; hasLoader: boolean }> = {};
  const modules: Record<string, { default: () => null; handle?: unknown }> = {};
  const walk = (list: Route[], parentId?: string) => {
    for (const r of list) {
      manifest[r.id!] = { id: r.id!, parentId, path: r.path, index: r.index, hasLoader: true };
      modules[r.id!] = { default: () => null, handle: { of: r.id } };
      walk(r.children ?? [], r.id);
    }
  };
  walk(tree());
  return { manifest, modules, future: {} };
}
/** A route tree as data: ids, paths, children, handles and which parts exist (functions compare by kind). */
const shape = (routes: object[]): unknown =>
  routes.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === "children" && v ? shape(v as object[]) : typeof v === "function" ? "function" : v])));

describe("keptServerRoutes", () => {
  it("builds Remix's server routes once per build, though each request gathers the modules anew", () => {
    const original = vi.fn(createServerRoutes);
    const kept = keptServerRoutes(original);
    const { manifest, modules, future } = build();
    const first = kept(manifest, { ...modules }, future, false);
    expect(shape(first)).toEqual(shape(createServerRoutes(manifest, modules, future, false)));
    expect(shape(first)).toEqual(expect.arrayContaining([expect.objectContaining({ id: "root", handle: { of: "root" } })]));
    expect(kept(manifest, { ...modules }, future, false)).toBe(first);
    expect(original).toHaveBeenCalledTimes(1);
    // A module replaced (a new build's) is a new tree; SPA mode is Remix's own every time.
    const changed = kept(manifest, { ...modules, "routes/_index": { default: () => null, handle: "otro" } }, future, false);
    expect(changed).not.toBe(first);
    expect(original).toHaveBeenCalledTimes(2);
    kept(manifest, modules, future, true);
    kept(manifest, modules, future, true);
    expect(original).toHaveBeenCalledTimes(4);
  });
});

describe("keptDataRoutes", () => {
  it("converts a tree once, and still fills each caller's manifest with its routes by id", () => {
    const original = vi.fn(UNSAFE_convertRoutesToDataRoutes);
    const kept = keptDataRoutes(original as never);
    const routes = tree();
    const expectedManifest = {};
    const expected = UNSAFE_convertRoutesToDataRoutes(routes, UNSAFE_mapRouteProperties, undefined, expectedManifest);
    const answers = [0, 1].map(() => {
      const manifest: Record<string, Route> = {};
      const dataRoutes = kept(routes, UNSAFE_mapRouteProperties, undefined, manifest);
      expect(shape(dataRoutes)).toEqual(shape(expected));
      expect(Object.keys(manifest).sort()).toEqual(Object.keys(expectedManifest).sort());
      expect(manifest["routes/socios.ofertas.$id"]).toBe(findById(dataRoutes as Route[], "routes/socios.ofertas.$id"));
      return dataRoutes;
    });
    expect(answers[1]).toBe(answers[0]);
    expect(original).toHaveBeenCalledTimes(1);
    // Another tree, or a subtree (React Router's own patching), is converted as asked.
    kept(tree(), UNSAFE_mapRouteProperties, undefined, {});
    kept(routes[0].children!, UNSAFE_mapRouteProperties, ["0"], {});
    expect(original).toHaveBeenCalledTimes(3);
  });
});

function findById(routes: Route[], id: string): Route | undefined {
  for (const r of routes) {
    if (r.id === id) return r;
    const inner = r.children && findById(r.children, id);
    if (inner) return inner;
  }
}
