import { decode, encode } from "turbo-stream";
import { describe, expect, it, vi } from "vitest";
import { cachedEncode, isPlain } from "#app/lib/handoff-cache.server";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Loader data as Remix hands it over: the root's and a listing's, built anew for each request. */
const pageData = (stock: number) => ({
  loaderData: {
    root: { origin: "https://ofertas.example", toasts: [], cart: { count: 0, lines: [] }, viewer: null, region: { value: "", label: "España" } },
    "routes/_index": {
      listing: {
        count: 2,
        cards: [
          { uuid: "abb20594-79b0-5139-a45c-9a876fad5d01", title: "Circuito termal para dos", priceCents: 5990, rating: 4.7, available: stock },
          { uuid: "b1c2", title: "Paella en la Malvarrosa «con vistas»", priceCents: 2400, rating: null, available: true },
        ],
      },
    },
  },
  actionData: null,
  errors: null,
});

/** [1, <hole>, 3] */
function holey(): number[] {
  const array: number[] = [];
  array[0] = 1;
  array[2] = 3;
  return array;
}

describe("isPlain", () => {
  it.each([
    ["a page's data", pageData(3), true],
    ["an empty object and array", { a: {}, b: [] }, true],
    ["a key whose value is undefined", { viewer: undefined }, false],
    ["a date", { at: new Date(0) }, false],
    ["a promise (a deferred loader)", { popular: Promise.resolve([]) }, false],
    ["NaN", [Number.NaN], false],
    ["-0", { n: -0 }, false],
    ["Infinity", { n: Number.POSITIVE_INFINITY }, false],
    ["a hole in an array", holey(), false],
    ["a symbol key (a single-fetch redirect)", { [Symbol("SingleFetchRedirect")]: { redirect: "/" } }, false],
    ["a class instance", { url: new URL("https://ofertas.example/") }, false],
    ["an object without prototype", { o: Object.create(null) as object }, false],
    ["a map", { m: new Map() }, false],
    ["a bigint", { n: 1n }, false],
  ])("%s → %s", (_name, value, plain) => {
    expect(isPlain(value)).toBe(plain);
  });

  it("refuses nesting deeper than loader data goes, rather than walking it", () => {
    let deep: unknown = "fondo";
    for (let i = 0; i < 40; i++) deep = { deep };
    expect(isPlain(deep)).toBe(false);
  });
});

describe("cachedEncode", () => {
  it("sends the text turbo-stream writes, and keeps the data asked for again", async () => {
    const original = vi.fn(encode as (input: unknown, options?: unknown) => ReadableStream<Uint8Array>);
    const cached = cachedEncode(original);
    const expected = await text(encode(pageData(3)));
    // Asked for once (a signed-in visitor's page, say): encoded, not kept.
    expect(await text(cached(pageData(3)))).toBe(expected);
    // Asked for again (each request's data is a new object): encoded once more, and kept.
    expect(await text(cached(pageData(3)))).toBe(expected);
    expect(original).toHaveBeenCalledTimes(2);
    // From then on, the same text without encoding.
    const again = await text(cached(pageData(3)));
    expect(again).toBe(expected);
    expect(original).toHaveBeenCalledTimes(2);
    expect(await decode(new Response(again).body!).then((d) => d.value)).toEqual(pageData(3));
    // Data that changed is encoded anew.
    expect(await text(cached(pageData(2)))).toBe(await text(encode(pageData(2))));
    expect(original).toHaveBeenCalledTimes(3);
  });

  it("leaves what JSON cannot say to turbo-stream, every time", async () => {
    const original = vi.fn(encode as (input: unknown, options?: unknown) => ReadableStream<Uint8Array>);
    const cached = cachedEncode(original);
    const data = { loaderData: { root: { at: new Date(0), viewer: undefined } } };
    for (let i = 0; i < 2; i++) {
      const decoded = (await decode(cached(data))).value as typeof data;
      expect(decoded.loaderData.root.at).toEqual(new Date(0));
      expect("viewer" in decoded.loaderData.root).toBe(true);
    }
    expect(original).toHaveBeenCalledTimes(2);
  });
});
