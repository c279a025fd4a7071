/** Business constants of spec section 9, named once. */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_DEBOUNCE_MS = 400;
export const RECENT_SEARCHES_MAX = 4;
export const MOBILE_MAX_WIDTH = 780; // "mobile below 781 px"
export const TABLET_MAX_WIDTH = 1024; // "tablet below 1025 px"
export const WIDGET_OFFER_COUNT = 3;
export const TOAST_DURATION_MS = 5000;
export const PAGE_SIZE_DEFAULT = 24;
export const PAGE_SIZE_MAX = 100;
/** The last page number a public listing answers (a million offers at PAGE_SIZE_MAX). */
export const PAGE_MAX = 10_000;
/** Rows a page of a partner's or staff list shows (their offers, organisations). */
export const PORTAL_PAGE_SIZE = 50;
/** Router pending threshold and minimum display (spec section 9); offer detail and payment show at once. */
export const PENDING_DELAY_MS = 1000;
export const PENDING_MIN_MS = 500;
/** Router default (spec section 9): data loaded ahead for a link is fresh 30 s. */
export const PRELOAD_STALE_MS = 30_000;
/** «Populares ahora»: tickets sold in paid sales of this many last days (spec section 2). */
export const POPULAR_DAYS = 7;
export const POPULAR_COUNT = 4; // one row of cards at 1280, two at tablet width
/** «Vistas recientemente»: offers remembered in the session cookie, newest first. */
export const RECENTLY_VIEWED_MAX = 8;
export const RECENTLY_VIEWED_SHOWN = 4;
