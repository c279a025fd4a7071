import { matchRoutes } from "@remix-run/router";
import { describe, expect, it, vi } from "vitest";
import { cachedMatchRoutes } from "#app/lib/route-match-cache.server";

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

function findById(routes: Route[], id: string): Route | undefined {
  for (const r of routes) {
    if (r.id === id) return r;
    const inner = r.children && findById(r.children, id);
    if (inner) return inner;
  }
}
