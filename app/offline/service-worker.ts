/// <reference lib="webworker" />
/**
 * The offline worker, served as /sw.js (built by scripts/vite-plugins.ts, serviceWorker; registered
 * by app/entry.client.tsx once the app has started). What it keeps and for whom: keep.ts.
 *
 * - A buyer's coupons page and its PDF: fetched from the network whenever there is one (the page
 *   is always fresh), kept when the answer allows a private cache, given back offline.
 * - Any other page offline: the offline page, with a link to the coupons kept here. A client-side
 *   navigation that cannot be fetched gets the offline page's reload redirect, so the app loads
 *   that page as a document.
 * - The kept pages' own files (/assets/…, hashed and the same for everyone): kept with them.
 * - Everything else, the API and every form post included, goes to the network untouched.
 * - Who is logged in is read from the Ofertas-Account header of our pages: another account, a
 *   logout, or a login over a guest's kept coupons drops them all; so does a post to /logout.
 */
import { ACCOUNT_HEADER, assetsOf, keepable, keptPurchase, mustDrop, OFFLINE_PAGE, OFFLINE_RELOAD_DATA, offlinePageWith } from "./keep";

declare const self: ServiceWorkerGlobalScope;
/** The build's id (scripts/vite-plugins.ts): a new build installs a new worker and a fresh offline page. */
declare const OFFLINE_BUILD: string;

/** The coupons kept, and who they belong to: personal, dropped as a whole. */
const KEPT = "ofertas-cupones";
/** The offline page and the installed shop's icons: the same for everyone, one per build. */
const SHELL = `ofertas-sin-conexion-${OFFLINE_BUILD}`;
/** Hashed files the kept pages and the offline page load. */
const ASSETS = "ofertas-archivos";
/** Where, in KEPT, the owner's marker is written (never a real address of the shop). */
const OWNER = "/__ofertas-offline-owner";
const KEPT_AT = "x-ofertas-kept-at";
const SHELL_FILES = ["/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL);
      // As nobody: the offline page must hold nothing of whoever installs the worker.
      const page = await fetch(OFFLINE_PAGE, { credentials: "omit", cache: "reload" });
      const reload = await fetch(OFFLINE_RELOAD_DATA, { credentials: "omit", cache: "reload" });
      if (!page.ok) throw new Error(`${OFFLINE_PAGE}: ${page.status}`);
      await shell.put(OFFLINE_PAGE, page.clone());
      await shell.put(OFFLINE_RELOAD_DATA, reload);
      await shell.addAll(SHELL_FILES);
      await keepAssets(await page.text());
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith("ofertas-sin-conexion-") && name !== SHELL) await caches.delete(name);
      await pruneAssets();
      // The browser starts a page's request while the worker wakes up, instead of after.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
      await keepOpenPages();
    })(),
  );
});

/**
 * The page that registered the worker loaded before it: a buyer's first visit is often the
 * coupons page itself, from the purchase mail. Such a page is fetched again once and kept.
 */
async function keepOpenPages(): Promise<void> {
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    const url = new URL(client.url);
    if (keptPurchase(url, self.location.origin)?.kind !== "page") continue;
    const response = await fetch(url.href).catch(() => null);
    if (response) await keep(url, response);
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Logging out, with or without JavaScript: the coupons go before the answer comes.
  if (request.method === "POST" && (url.pathname === "/logout" || url.pathname === "/logout.data")) {
    event.waitUntil(dropKept());
    return;
  }
  if (request.method !== "GET" || url.pathname.startsWith("/api/") || url.pathname.startsWith("/v0/")) return;
  if (url.pathname.startsWith("/assets/")) return event.respondWith(fromCacheOrNetwork(ASSETS, request));
  if (request.mode === "navigate") return event.respondWith(navigate(event, url));
  if (keptPurchase(url, self.location.origin)?.kind === "pdf") return event.respondWith(networkThenKept(event, request, url));
  if (url.pathname.endsWith(".data")) return event.respondWith(data(request));
  if (SHELL_FILES.includes(url.pathname)) return event.respondWith(fromCacheOrNetwork(SHELL, request, true));
});

async function navigate(event: FetchEvent, url: URL): Promise<Response> {
  if (keptPurchase(url, self.location.origin)) return networkThenKept(event, event.request, url);
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    event.waitUntil(noticeAccount(response));
    return response;
  } catch {
    return offlinePage();
  }
}

/**
 * A kept address: the network's answer, kept when it may be; offline, or when the shop answers
 * with a server error (an outage), the copy kept, if any.
 */
async function networkThenKept(event: FetchEvent, request: Request, url: URL): Promise<Response> {
  const kept = async () => (await caches.open(KEPT)).match(url.href);
  try {
    const response = (request.mode === "navigate" ? await event.preloadResponse : undefined) ?? (await fetch(request));
    if (response.status >= 500) return (await kept()) ?? response;
    event.waitUntil(keep(url, response.clone()));
    return response;
  } catch {
    return (await kept()) ?? (request.mode === "navigate" ? offlinePage() : Response.error());
  }
}

/** A single-fetch request: the network's answer; offline, the redirect to the offline page. */
async function data(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    await noticeAccount(response);
    return response;
  } catch {
    return (await (await caches.open(SHELL)).match(OFFLINE_RELOAD_DATA)) ?? Response.error();
  }
}

async function fromCacheOrNetwork(cache: string, request: Request, ignoreSearch = false): Promise<Response> {
  return (await (await caches.open(cache)).match(request, { ignoreSearch })) ?? fetch(request);
}

async function keep(url: URL, response: Response): Promise<void> {
  await noticeAccount(response);
  const purchase = keptPurchase(url, self.location.origin);
  if (!purchase || !keepable(response)) return;
  const body = await response.arrayBuffer();
  const headers = withoutLength(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  await (await caches.open(KEPT)).put(url.href, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  if (purchase.kind === "page") await keepAssets(new TextDecoder().decode(body));
}

/**
 * Who a response was for, against who the kept coupons are for: a change drops them. The first
 * account seen owns what is kept from then on (a PDF carries no header of its own).
 */
async function noticeAccount(response: Response): Promise<void> {
  const seen = response.headers.get(ACCOUNT_HEADER);
  if (!seen) return;
  const owner = (await (await (await caches.open(KEPT)).match(OWNER))?.text()) ?? null;
  if (owner === seen) return;
  if (mustDrop(owner, seen)) await dropKept();
  await (await caches.open(KEPT)).put(OWNER, new Response(seen));
}

/** A body of another length than the one fetched: its length and encoding headers no longer hold. */
function withoutLength(original: Headers): Headers {
  const headers = new Headers(original);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return headers;
}

async function dropKept(): Promise<void> {
  await caches.delete(KEPT);
  await pruneAssets();
}

async function keepAssets(html: string): Promise<void> {
  const assets = await caches.open(ASSETS);
  for (const path of assetsOf(html)) if (!(await assets.match(path))) await assets.add(path).catch(() => {});
}

/** Assets no kept page and no offline page loads any more (an older build's) are let go. */
async function pruneAssets(): Promise<void> {
  const wanted = new Set<string>();
  for (const name of [KEPT, SHELL]) {
    const cache = await caches.open(name);
    for (const key of await cache.keys()) {
      const type = (await cache.match(key))?.headers.get("content-type") ?? "";
      if (type.startsWith("text/html")) for (const path of assetsOf(await (await cache.match(key))!.text())) wanted.add(path);
    }
  }
  const assets = await caches.open(ASSETS);
  for (const key of await assets.keys()) if (!wanted.has(new URL(key.url).pathname)) await assets.delete(key);
}

async function offlinePage(): Promise<Response> {
  const page = await (await caches.open(SHELL)).match(OFFLINE_PAGE);
  if (!page) return Response.error();
  const kept = await caches.open(KEPT);
  const pages: { url: string; sale: string; at: number }[] = [];
  for (const key of await kept.keys()) {
    const url = new URL(key.url);
    const purchase = keptPurchase(url, self.location.origin);
    if (purchase?.kind !== "page") continue;
    const at = Number((await kept.match(key))?.headers.get(KEPT_AT) ?? 0);
    pages.push({ url: url.pathname + url.search, sale: purchase.sale, at });
  }
  pages.sort((a, b) => b.at - a.at);
  const html = offlinePageWith(await page.text(), pages);
  return new Response(html, { status: 200, headers: withoutLength(page.headers) });
}
