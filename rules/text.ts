import { countOf, plural } from "./plurals";

/**
 * Text that can be stored and shown: no NUL (PostgreSQL refuses it in text and jsonb) and no lone
 * UTF-16 surrogate (not valid Unicode, refused by jsonb and by every encoder on the way out).
 * One rule for every edge that reads input: API bodies and queries, storefront forms, cookies.
 */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

// NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is exactly what is refused
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first string inside a parsed JSON value or query object that is not storable, if any (or a marker for absurd nesting). */
export function findUnstorableText(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return isStorableText(value) ? null : value;
  if (typeof value !== "object" || value === null) return null;
  // No form or API body nests this deep; refusing it keeps the walk (and what follows) bounded.
  if (depth > 32) return "(demasiado anidado)";
  for (const [key, inner] of Object.entries(value)) {
    if (!isStorableText(key)) return key;
    const found = findUnstorableText(inner, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const UNSTORABLE_TEXT_MESSAGE =
  "El texto enviado contiene caracteres no válidos (como el carácter nulo). Revísalo y vuelve a intentarlo.";

/** A number of tickets in words: «1 entrada», «3 entradas». */
export const ticketsInWords = (n: number): string => countOf(n, "entrada", "entradas");

/** What stock is left, verb included: «Solo queda 1 entrada», «Solo quedan 3 entradas». */
export const ticketsLeft = (n: number): string => `Solo ${plural(n, "queda", "quedan")} ${ticketsInWords(n)}`;

/** Text put into HTML written by hand (outside React, which escapes by itself): in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
