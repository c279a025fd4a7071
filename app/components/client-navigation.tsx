import { useCallback, useEffect, useState } from "react";
import { PrefetchPageLinks, useFetcher, useNavigate } from "@remix-run/react";
import { isUuid } from "#rules/uuid";
import { prefetchNext } from "#app/state/offer-prefetch";

/**
 * A plain link that behaves like Remix's <Link prefetch="intent">: spread on an `<a href>`.
 * `data-discover` lets Remix learn the route before the click, as it does for its own links.
 *
 * Why not <Link>: each one runs a dozen hooks on the server (path resolution, prefetch state,
 * click handler, refs), and a listing page renders 28 cards. Plain anchors with the behaviour
 * delegated to one listener (ClientNavigation) cost the server less on every listing page, and
 * without JavaScript they are what <Link> renders anyway.
 */
export const CLIENT_LINK = { "data-client-link": "", "data-discover": "true" } as const;
const SELECTOR = "a[data-client-link]";
/** Remix waits this long on a hovered or focused link before it prefetches. */
const INTENT_DELAY_MS = 100;

function linkOf(target: EventTarget | null): HTMLAnchorElement | null {
  const link = target instanceof Element ? target.closest<HTMLAnchorElement>(SELECTOR) : null;
  return link && link.origin === window.location.origin ? link : null;
}

/** An offer's page: its data is loaded ahead through its own loader, the click then uses it (offer-prefetch.ts). */
const offerPath = (path: string) => {
  const id = /^\/ofertas\/([^/]+)\/$/.exec(path)?.[1];
  return id && isUuid(id) ? path : null;
};

/**
 * One offer loaded ahead, through a fetcher that is let go as soon as its load has started: the
 * load still ends (fetchers persist until idle) and keeps its answer for the click, but a fetcher
 * no longer on the page is never revalidated by later navigations, nor shows an error page when
 * the prefetch fails. Kept mounted, it was loaded again on every navigation.
 */
function OfferPrefetch({ path, started }: { path: string; started: () => void }) {
  const { load } = useFetcher();
  useEffect(() => {
    prefetchNext(path);
    load(path);
    started();
  }, [path, load, started]);
  return null;
}

/**
 * Once per page: client-side navigation for CLIENT_LINK anchors (a plain left click, as <Link>
 * decides it), and the page data and modules of the one the visitor is about to open. An offer's
 * page is never stored by the browser (live stock), so its data is loaded through its own loader
 * and kept for the click (app/state/offer-prefetch.ts): Remix's prefetch link was thrown away.
 */
export function ClientNavigation() {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
  const [prefetch, setPrefetch] = useState<string | null>(null);
  const started = useCallback(() => setPrefetch(null), []);
  useEffect(() => {
    const offer = intent ? offerPath(intent) : null;
    if (offer) setPrefetch(offer);
  }, [intent]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: HTMLAnchorElement | null = null;
    const onClick = (event: MouseEvent) => {
      const link = linkOf(event.target);
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      event.preventDefault();
      navigate(link.pathname + link.search + link.hash);
    };
    const later = (event: Event) => {
      const link = linkOf(event.target);
      // mouseover comes again from each part of a card: the wait starts once per link.
      if (!link || link === pending) return;
      clearTimeout(timer);
      pending = link;
      timer = setTimeout(() => setIntent(link.pathname + link.search), INTENT_DELAY_MS);
    };
    const now = (event: Event) => {
      const link = linkOf(event.target);
      if (link) setIntent(link.pathname + link.search);
    };
    const leave = (event: MouseEvent | FocusEvent) => {
      // Moving between the parts of one card is not leaving it.
      if (linkOf(event.target) === linkOf(event.relatedTarget)) return;
      clearTimeout(timer);
      pending = null;
    };
    const listeners = [
      ["click", onClick],
      ["mouseover", later],
      ["focusin", later],
      ["mouseout", leave],
      ["focusout", leave],
      ["touchstart", now],
    ] as const;
    for (const [type, listener] of listeners)
      document.addEventListener(type, listener as EventListener, { passive: type === "touchstart" });
    return () => {
      clearTimeout(timer);
      for (const [type, listener] of listeners) document.removeEventListener(type, listener as EventListener);
    };
  }, [navigate]);
  // An offer's page is loaded ahead by OfferPrefetch (its module with it); others by Remix's links.
  if (prefetch) return <OfferPrefetch key={prefetch} path={prefetch} started={started} />;
  return intent && !offerPath(intent) ? <PrefetchPageLinks page={intent} /> : null;
}
