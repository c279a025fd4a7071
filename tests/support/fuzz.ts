/**
 * Shared pieces of the fuzz suites (tests/api/fuzz.test.ts, tests/e2e/fuzz.spec.ts): hostile
 * strings, how to put them on the wire, and what a response must never look like.
 */
import fc from "fast-check";

/** Fixed unless FUZZ_SEED says otherwise, so a failure is reproducible; printed on failure. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/** Strings that broke things before, or are known to break parsers and databases. */
export const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDFFFy",
  "😋",
  "€",
  "\u2028",
  "ñÑçÇ",
  "%00",
  "%ED%A0%80",
  "%zz",
  "%",
  "../../etc/passwd",
  "//evil.example",
  "/\\evil.example",
  "javascript:alert(1)",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "99999999999999999999",
  "1,00",
  "__proto__",
  "constructor",
  "a".repeat(5000),
  "00000000-0000-0000-0000-000000000000",
  "ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ",
];

/** Any text, including lone surrogates and NUL, biased towards the nasty list. */
/** What PostgreSQL refuses or JavaScript cannot encode: the classes that made 500s. */
export const UNSTORABLE = ["\u0000", "a\u0000b", "\uD800", "x\uDFFFy", "%00"];

export const hostileText = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...UNSTORABLE) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );

/** A JSON-ish value of any shape, hostile strings at the leaves. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      hostileText(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(hostileText(), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

/** One path segment as a client would send it: percent-encoded, or raw escapes that do not decode. */
export function pathSegment(text: string): string {
  if (/^%/.test(text)) return text; // already an escape (valid or not): send as is
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send the bytes a careless client would.
    return "%ED%A0%80";
  }
}

/** A query string of these pairs, each value percent-encoded like pathSegment. */
export function queryString(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${pathSegment(k)}=${pathSegment(v)}`).join("&");
}

/** JSON text of any value, lone surrogates written as \ud800 escapes (as JSON.stringify does). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

const STACK = /\bat [^\n]+\.(?:[cm]?js|tsx?):\d+:\d+|node_modules\/|\bError: [^\n]+\n\s+at /;

/** A response is fine when it is not a server error and shows no stack trace. */
export function problemWith(status: number, body: string): string | null {
  if (status >= 500) return `status ${status}: ${body.slice(0, 300)}`;
  if (STACK.test(body)) return `stack trace in a ${status} answer: ${body.slice(0, 300)}`;
  return null;
}
