/**
 * What the offline worker (service-worker.ts) keeps, and for whom: the rules, apart from the
 * worker so that they are tested like any other module (tests/unit/offline-keep.test.ts).
 *
 * Only a buyer's own coupons are kept: the coupons page of a purchase (/order/coupons, the signed
 * link of the purchase mail and of the success page) and its PDF (/order/coupon-pdf with the same
 * signature), once opened online, with the files those pages load. Nothing else of a person's is
 * kept: no other page, no API answer, no single-fetch data.
 */
import { orderNumber } from "#rules/coupons";

/** The page shown offline in place of any page that is not kept (app/routes/sin-conexion). */
export const OFFLINE_PAGE = "/sin-conexion";
/**
 * The single-fetch answer of OFFLINE_PAGE's reload address: a redirect that makes the app load
 * OFFLINE_PAGE as a document. The worker answers a client-side navigation it cannot fetch with it.
 */
export const OFFLINE_RELOAD_DATA = "/sin-conexion.data?recargar=1";

/**
 * Who the pages of a response are for, as the worker can see it without cookies: a keyed hash of
 * the account, or GUEST (entry.server.tsx sets it on every page and single-fetch answer).
 */
export const ACCOUNT_HEADER = "Ofertas-Account";
export const GUEST = "guest";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The purchase a kept address is about, or null when the address is not one the worker keeps. */
export function keptPurchase(url: URL, origin: string): { kind: "page" | "pdf"; sale: string } | null {
  if (url.origin !== origin) return null;
  const kind = url.pathname === "/order/coupons" ? "page" : url.pathname === "/order/coupon-pdf" ? "pdf" : null;
  const sale = url.searchParams.get("sale") ?? "";
  if (!kind || !UUID.test(sale) || !url.searchParams.get("sig")) return null;
  return { kind, sale: sale.toLowerCase() };
}

/**
 * A response the worker may keep: a whole answer of our own origin, marked for one person
 * (Cache-Control `private`). The coupons page and the PDF say `private, no-store`: the browser's
 * HTTP cache never holds them, so the worker's copy, which logout drops, is the only one.
 */
export function keepable(response: { ok: boolean; type: string; headers: { get(name: string): string | null } }): boolean {
  return response.ok && response.type === "basic" && /\bprivate\b/i.test(response.headers.get("cache-control") ?? "");
}

/**
 * Whether what is kept must go, seeing a response for `seen` while it was kept for `owner`: any
 * change of who is logged in (another account, a logout, a login over a guest's coupons) drops it,
 * so that nobody finds another person's coupons on a shared phone.
 */
export function mustDrop(owner: string | null, seen: string | null): boolean {
  return owner !== null && seen !== null && owner !== seen;
}

/** The /assets/… files a kept page loads (styles, the app's modules, the icons' sprite): kept with it. */
export function assetsOf(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:href|src)="(\/assets\/[^"?#]+)[^"]*"/g)].map((m) => m[1]))];
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/**
 * The offline page with the purchases kept on this device: its «Mis cupones» button goes to the
 * newest, and a list names each by its order number. The server renders the page as for none
 * (app/routes/sin-conexion: the `data-kept-…` attributes come first in their tags), the worker
 * fills it in.
 */
export function offlinePageWith(html: string, kept: { url: string; sale: string }[]): string {
  if (!kept.length) return html;
  const items = kept.map((k) => `<li><a href="${escape(k.url)}">Cupones del pedido nº ${orderNumber(k.sale)}</a></li>`).join("");
  return html
    .replace(/data-kept-link="" href="[^"]*"/, `data-kept-link="" href="${escape(kept[0].url)}"`)
    .replace(/<p data-kept-none=""/, '<p data-kept-none="" hidden=""')
    .replace(/<ul data-kept-list="" hidden=""([^>]*)><\/ul>/, `<ul data-kept-list=""$1>${items}</ul>`);
}
