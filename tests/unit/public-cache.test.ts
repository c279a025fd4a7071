// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { createPublicCache } from "#app/api-client/public-cache.server";

function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("the storefront's public catalogue cache", () => {
  it("answers from memory for a minute, then stale while one background load refreshes it", async () => {
    const c = clock();
    const cache = createPublicCache({ freshMs: 60_000, staleMs: 240_000, maxEntries: 10, now: c.now });
    let version = 0;
    const load = vi.fn(async () => ++version);
    expect(await cache.get("/offers?page=1", load)).toBe(1);
    c.advance(59_000);
    expect(await cache.get("/offers?page=1", load)).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    c.advance(2_000); // 61 s: stale
    // The stale answer at once to both, and only one refresh under way.
    expect(await Promise.all([cache.get("/offers?page=1", load), cache.get("/offers?page=1", load)])).toEqual([1, 1]);
    expect(load).toHaveBeenCalledTimes(2);
    expect(await cache.get("/offers?page=1", load)).toBe(2); // refreshed
    c.advance(60_000 + 240_000); // too old to serve even stale: wait for a fresh load
    expect(await cache.get("/offers?page=1", load)).toBe(3);
  });

  it("keys by URL, keeps no failures, shares one load between concurrent misses", async () => {
    const cache = createPublicCache({ freshMs: 60_000, staleMs: 0, maxEntries: 10 });
    const load = vi.fn(async () => "x");
    await Promise.all([cache.get("a", load), cache.get("a", load), cache.get("a", load)]);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get("b", load);
    expect(load).toHaveBeenCalledTimes(2);
    await expect(cache.get("c", async () => Promise.reject(new Error("API caída")))).rejects.toThrow("API caída");
    expect(await cache.get("c", async () => "ahora sí")).toBe("ahora sí");
  });

  it("forgets the oldest entries beyond its size, and 0 seconds means no cache", async () => {
    const cache = createPublicCache({ freshMs: 60_000, staleMs: 0, maxEntries: 2 });
    for (const k of ["a", "b", "c"]) await cache.get(k, async () => k);
    expect(cache.size).toBe(2);
    const reload = vi.fn(async () => "a2");
    expect(await cache.get("a", reload)).toBe("a2");
    const off = createPublicCache({ freshMs: 0, staleMs: 0, maxEntries: 2 });
    const load = vi.fn(async () => 1);
    await off.get("a", load);
    await off.get("a", load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
