/**
 * The consented tools' entry: analytics, session replay, the tag manager and the
 * interactive map. Built as a chunk of its own (vite.config.ts) that no page imports: the server
 * appends its `<script type="module">` to a document only when a configured tool's category is
 * accepted (entry.server.tsx), and a consent choice reloads the document. So a visitor who says
 * no, or has no JavaScript, downloads none of it, and the pages carry no code for it.
 *
 * Instead of being called by the pages, it watches them: the Remix router's state says which page
 * is shown and with what data (an offer viewed, a checkout with lines, the funnel events an
 * action left in the root loader), and the DOM says when the map section is on screen.
 */
import type { OfferMapData } from "#app/components/offer-map-data";
import { NEVER_RECORDED_SELECTOR } from "#app/document/never-recorded";
import { isNeverRecorded, type ClientIntegrations, type FunnelEvent } from "#rules/tracking";
import { allowRecording, fillDeviceId, onPage } from "./tracking.client";

type RouterState = {
  navigation: { state: string; location?: { pathname: string } };
  location: { pathname: string; key: string };
  matches: { route: { id: string } }[];
  loaderData: Record<string, unknown>;
};
type RemixRouter = { state: RouterState; subscribe: (fn: (state: RouterState) => void) => () => void };
type RootData = { integrations?: ClientIntegrations | null; events?: FunnelEvent[] };
type OfferData = { offer?: { title: string }; map?: OfferMapData | null };

/** The router exists once the app's own entry has run; if it never does, the page is a no-JS page. */
function whenRouter(): Promise<RemixRouter | null> {
  return new Promise((resolve) => {
    const started = Date.now();
    const look = () => {
      const router = (window as unknown as { __remixRouter?: RemixRouter }).__remixRouter;
      if (router) resolve(router);
      else if (Date.now() - started > 30_000) resolve(null);
      else setTimeout(look, 50);
    };
    look();
  });
}

let seenPath = "";
let visits = 0;
let seenEvents: unknown = null;

/**
 * One run per page visit and per new batch of events, once the navigation has settled. A visit
 * ends when the path changes: a form posted on the page (add to cart, a promo code) comes back
 * to the same path as a new location, but it is still the same page seen once.
 */
function visit(state: RouterState) {
  if (state.navigation.state !== "idle") return;
  const root = state.loaderData.root as RootData | undefined;
  const integrations = root?.integrations;
  if (!integrations || (!integrations.analytics && !integrations.gtm)) return;
  const path = state.location.pathname.replace(/\/$/, "");
  if (path === seenPath && root?.events === seenEvents) return;
  if (path !== seenPath) visits += 1;
  seenPath = path;
  seenEvents = root?.events;
  onPage({
    integrations,
    events: root?.events ?? [],
    pathname: state.location.pathname,
    pageKey: String(visits),
    matches: state.matches.map((m) => ({ id: m.route.id, data: state.loaderData[m.route.id] })),
  }).catch(() => {}); // a blocked vendor never breaks the shop
}

/** Mounted maps, by their section: a new offer in the same section (React reuses it) remounts. */
const maps = new Map<HTMLElement, { at: string; stop: () => void }>();

/**
 * The interactive map replaces the static picture (ours) once the offer's map section comes near
 * the viewport; Leaflet and the tiles load only then. The section is React's: the canvas is an
 * extra node and the picture is only hidden, so React's own nodes stay where it left them.
 */
function syncMap(router: RemixRouter) {
  for (const [section, m] of maps) {
    if (!section.isConnected) {
      m.stop();
      maps.delete(section);
    }
  }
  const data = router.state.loaderData["routes/ofertas.$ofertaId"] as OfferData | undefined;
  const map = data?.map;
  const section = document.querySelector<HTMLElement>("section.offer-map");
  if (!section || !map?.tiles) return;
  const at = `${map.lat},${map.lon}`;
  const current = maps.get(section);
  if (current?.at === at) return;
  current?.stop();
  const { tiles, lat, lon } = map;
  const title = data?.offer?.title ?? "";
  let stop = () => observer.disconnect();
  maps.set(section, { at, stop: () => stop() });
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      import("./map.client").then(
        ({ showMap }) => {
          if (maps.get(section)?.at !== at) return; // navigated on while loading
          const canvas = document.createElement("div");
          canvas.className = "offer-map-canvas";
          canvas.setAttribute("role", "region");
          canvas.setAttribute("aria-label", `Mapa interactivo: ${title}`);
          canvas.dataset.testid = "interactive-map";
          const picture = section.querySelector("img");
          section.querySelector("p")?.after(canvas);
          // Hidden by style: the shop's CSS gives images a display of their own, which beats [hidden].
          if (picture) picture.style.display = "none";
          const remove = showMap(canvas, { lat, lon, title, tiles });
          stop = () => {
            remove();
            canvas.remove();
            if (picture) picture.style.display = "";
          };
        },
        () => {},
      ); // blocked: the picture and the link stay
    },
    { rootMargin: "200px" },
  );
  observer.observe(section);
}

/**
 * Session replay may record only while neither the page on screen nor the one being opened is
 * never recorded. A navigation to such a page stops it as the navigation starts, before the
 * page is drawn; the way back starts it only once the DOM no longer shows that page (the
 * layout's mark), since React draws after the router has moved on.
 */
function recordable(state: RouterState): boolean {
  const next = state.navigation.location?.pathname;
  if ((next && isNeverRecorded(next)) || isNeverRecorded(state.location.pathname)) return false;
  return !document.querySelector(NEVER_RECORDED_SELECTOR);
}

async function start() {
  const router = await whenRouter();
  if (!router) return;
  allowRecording(recordable(router.state));
  visit(router.state);
  router.subscribe((state) => {
    allowRecording(recordable(state));
    visit(state);
  });
  // React renders after the router's state changes: the DOM is read when it has changed.
  let queued = false;
  const onDom = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      allowRecording(recordable(router.state));
      syncMap(router);
      fillDeviceId();
    });
  };
  onDom();
  new MutationObserver(onDom).observe(document.body, { childList: true, subtree: true, attributeFilter: ["data-never-recorded"] });
}

void start();
