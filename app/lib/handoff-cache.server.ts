import { createRequire } from "node:module";
import { Recent } from "#lib/recent";

/**
 * Remix hands every page's loader data to the browser encoded by turbo-stream (in the page, and
 * as the `.data` of a client-side navigation), from scratch on each request: on the home page,
 * 9 % of the server's CPU, ~250 µs and ~150 KB of allocation a request, for the same cards each
 * time (from the storefront's minute cache) and, for every anonymous visitor, the same header.
 * The encoding of plain data (JSON's kinds of values: no promise, date, undefined, class
 * instance…) depends only on the data, so the texts most recently sent are kept here by the
 * data's JSON, as the API's gzip is kept by its text (lib/gzip.server.ts). Checking the data and
 * writing its JSON, then sending a kept text, costs ~80 µs.
 *
 * Equal JSON is equal plain data, which turbo-stream decodes to equal values; the one thing a
 * kept text may differ in is which equal objects it shares by reference, which no reader of
 * loader data can tell (Remix's data is not mutated). Anything not plain goes to turbo-stream
 * itself, as do deferred loaders' promises.
 */
type Encode = (input: unknown, options?: unknown) => ReadableStream<Uint8Array>;

/** Texts kept, the least recently sent dropped first: a few dozen pages of a few KB. */
const recent = new Recent<string, Uint8Array>(32);

/**
 * A page's data is kept from the second time it is asked for: a signed-in visitor's or a cart's
 * data, asked for once, would only push out what others ask for again, and its text would outlive
 * the request for nothing. Pages asked for once are remembered by a number made from the text's
 * length and ends (a slice of the text would hold all of it); two pages that share one are kept a
 * request early, which is harmless.
 */
const seen = new Recent<number, true>(256);
const ENDS = 160;

function askedBefore(key: string): boolean {
  // FNV-1a over the length and the first and last ENDS characters.
  let print = (2166136261 ^ key.length) >>> 0;
  const take = (i: number) => (print = Math.imul(print ^ key.charCodeAt(i), 16777619) >>> 0);
  for (let i = 0; i < Math.min(ENDS, key.length); i++) take(i);
  for (let i = Math.max(ENDS, key.length - ENDS); i < key.length; i++) take(i);
  if (seen.has(print)) return true;
  seen.set(print, true);
  return false;
}

/** Nesting deeper than this is not loader data we send: turbo-stream is asked, as before. */
const MAX_DEPTH = 32;

/** Whether `value` is made of JSON's kinds of values only, so that its JSON says all of it. */
export function isPlain(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      // JSON writes NaN and ±Infinity as null and -0 as 0; turbo-stream keeps them.
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlain(value[i], depth + 1)) return false;
        return true;
      }
      // A date, a map, an error, a response…: turbo-stream and Remix's plugins encode those.
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      // Single fetch marks a redirect with a symbol key, which JSON does not see.
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      for (const key of Object.keys(value)) if (!isPlain((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      // undefined (which turbo-stream keeps as a key's value, and JSON drops), functions, symbols, bigints.
      return false;
  }
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

export function cachedEncode(original: Encode): Encode {
  return (input, options) => {
    if (!isPlain(input)) return original(input, options);
    const key = JSON.stringify(input);
    const kept = recent.get(key);
    if (kept) return streamOf(kept);
    if (!askedBefore(key)) return original(input, options);
    return new ReadableStream({
      async start(controller) {
        // Plain data is one chunk, written at once: nothing waits on it.
        const bytes = new Uint8Array(await new Response(original(input, options)).arrayBuffer());
        recent.set(key, bytes);
        controller.enqueue(bytes);
        controller.close();
      },
    });
  };
}

let installed = false;

/** Puts the cache in front of turbo-stream's encode, which Remix's server runtime reads at call time. */
export function installHandoffCache() {
  if (installed) return;
  installed = true;
  const turbo = createRequire(import.meta.url)("turbo-stream") as { encode: Encode };
  turbo.encode = cachedEncode(turbo.encode);
}
