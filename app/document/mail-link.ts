import type { HeadersFunction, MetaDescriptor } from "@remix-run/node";

/** Pages opened from a mailed link whose URL holds its token (`t=…`, docs/mail.md): never cached. */
export const LINK_PAGE_HEADERS = { "Cache-Control": "private, no-store" };

/** The route's `headers` export: the document (and its error page) carries LINK_PAGE_HEADERS. */
export const linkPageHeaders: HeadersFunction = () => LINK_PAGE_HEADERS;

/**
 * Such a page's URL is never sent on as a referrer, not even to this site's next page, where any
 * script reading document.referrer would find the token: only the origin goes. A meta tag, as it
 * replaces the site's Referrer-Policy header for this document (a second header would only be
 * appended to it). Not "no-referrer": the browser would then send `Origin: null` with the page's
 * own form, which Remix refuses as a cross-site post.
 */
export const originOnlyReferrerMeta: MetaDescriptor = { name: "referrer", content: "strict-origin" };
