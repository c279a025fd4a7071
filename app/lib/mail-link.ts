import type { HeadersFunction, MetaDescriptor } from "@remix-run/node";

/**
 * Pages opened from a mailed link whose URL holds its token (`t=…`, docs/mail.md): kept out of
 * caches, and their URL never sent on as a referrer, not even to this site's next page, where any
 * script reading document.referrer would find it. Only the origin goes: with no referrer at all,
 * the browser would send `Origin: null` with the page's own form, which Remix refuses as a
 * cross-site post.
 */
export const LINK_PAGE_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "strict-origin" };

/** The route's `headers` export: the document (and its error page) carries LINK_PAGE_HEADERS. */
export const linkPageHeaders: HeadersFunction = () => LINK_PAGE_HEADERS;

/** The same policy for navigations made in the browser, which the header does not cover. */
export const originOnlyReferrerMeta: MetaDescriptor = { name: "referrer", content: "strict-origin" };
