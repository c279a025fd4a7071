import { createStaticHandler, matchRoutes, type StaticHandlerContext } from "@remix-run/router";
import { describe, expect, it, vi } from "vitest";
import { cachedMatchRoutes, prunedStaticHandler } from "#app/lib/route-match-cache.server";

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

function findById(routes: Route[], id: string): Route | undefined {
  for (const r of routes) {
    if (r.id === id) return r;
    const inner = r.children && findById(r.children, id);
    if (inner) return inner;
  }
}
