/**
 * Analytics, session replay and the tag manager. Only the consented tools' entry
 * (third-party.client.ts) imports this module, and the server adds that entry's script tag to a
 * document only after consent: none of it, nor any vendor code, is in a page's first-load
 * JavaScript.
 */
import type { EnrichmentPlugin, Event, Storage } from "@amplitude/analytics-core";
import type { SessionReplayPlugin } from "@amplitude/plugin-session-replay-browser";
import {
  ANALYTICS_SETTINGS,
  dataLayerName,
  fetchWithReplayPolicy,
  FUNNEL_EVENTS,
  isUntracked,
  scrubEvent,
  scrubProperties,
  scrubReplayPayload,
  scrubText,
  type ClientIntegrations,
  type EventProperties,
  type FunnelEvent,
} from "#rules/tracking";
import { NEVER_RECORDED_SELECTOR } from "#app/document/never-recorded";

export type PageContext = {
  integrations: ClientIntegrations;
  pathname: string;
  /** Stable for one visit of one page, so a revalidation does not repeat its page events. */
  pageKey: string;
  matches: { id: string; data: unknown }[];
  /** Flashed by the server after an action (added to cart, promo codes). */
  events: FunnelEvent[];
};

type Amplitude = ReturnType<typeof import("@amplitude/analytics-browser").createInstance>;

let amplitude: Promise<Amplitude> | null = null;
let replay: { plugin: SessionReplayPlugin; added: boolean } | null = null;
/**
 * Whether the recording may run: the entry sets it from the router and the DOM (false from the
 * moment a navigation heads for a page never recorded until another page is on screen).
 */
let recordable = false;
/** What a recording needs to start again once it may: set by the first page that loaded analytics. */
let replayStart: (() => Promise<void>) | null = null;
/**
 * Stops the recording at once. Once the plugin is added its stop holds (a start under way is
 * dropped), and the plugin's setup runs within add(): no recording can begin after this call.
 */
const stopReplay = () => {
  if (replay?.added) replay.plugin.stop();
};

/** From the entry: whether what is on screen, and what is being opened, may be recorded. */
export function allowRecording(allowed: boolean) {
  if (allowed === recordable) return;
  recordable = allowed;
  if (!allowed) stopReplay();
  else void replayStart?.().catch(() => {});
}
let gtmLoaded = false;
const sent = new Set<string>();

/** The pages of this visit, path only: our own page properties, instead of the SDK's URLs. */
const pages = { current: "", previous: "" };
export function notePage(pathname: string) {
  if (pathname === pages.current) return;
  pages.previous = pages.current;
  pages.current = pathname;
}
/** The page the document was opened from, when it is one of ours: its path only. */
function referrerPath(): string {
  try {
    const from = new URL(document.referrer);
    return from.origin === window.location.origin ? from.pathname : "";
  } catch {
    return "";
  }
}

/**
 * Every event, whatever filled it (our funnel, the SDK's page views and downloads, a plugin added
 * later), leaves with its URLs reduced to their path and no address (rules/tracking.ts scrubEvent),
 * and with our own path-only page properties; the SDK's page-URL enrichment is off. An event on a
 * page a mail leads to is dropped. Registered first, so it sees the events of init, and again
 * last, after the SDK's own plugins, so nothing they add escapes it.
 */
function privacyPlugin(name: string): EnrichmentPlugin {
  return {
    name,
    type: "enrichment",
    async execute(event: Event) {
      const here = window.location.pathname;
      if (isUntracked(here)) return null;
      // The SDK's page view of a new page comes before the router tells us of it.
      const previous = (here === pages.current ? pages.previous : pages.current) || referrerPath() || null;
      const props = { ...(event.event_properties ?? {}), page_path: here, previous_page_path: previous };
      return scrubEvent({ ...event, event_properties: props });
    },
  };
}

/**
 * Events waiting to be sent, in localStorage as the SDK keeps them, at most storedEventsMax
 * (spec section 9: 1,000 stored events); past that the newest are not kept, as the SDK does.
 */
export const storedEvents: Storage<Event[]> = {
  async isEnabled() {
    try {
      localStorage.setItem("AMP_TEST", "1");
      localStorage.removeItem("AMP_TEST");
      return true;
    } catch {
      return false;
    }
  },
  async get(key) {
    try {
      const raw = localStorage.getItem(key);
      return raw ? (JSON.parse(raw) as Event[]) : undefined;
    } catch {
      return undefined;
    }
  },
  async getRaw(key) {
    return localStorage.getItem(key) ?? undefined;
  },
  async set(key, events) {
    try {
      localStorage.setItem(key, JSON.stringify(Array.isArray(events) ? events.slice(0, ANALYTICS_SETTINGS.storedEventsMax) : events));
    } catch {
      // full or refused: the events stay in memory only
    }
  },
  async remove(key) {
    localStorage.removeItem(key);
  },
  async reset() {
    for (const key of Object.keys(localStorage)) if (key.startsWith("AMP_unsent")) localStorage.removeItem(key);
  },
};

function loadAmplitude(settings: NonNullable<ClientIntegrations["analytics"]>): Promise<Amplitude> {
  amplitude ??= import("@amplitude/analytics-browser").then(async ({ createInstance }) => {
    const client = createInstance();
    await client.add(privacyPlugin("ofertas-privacy")).promise;
    await client.init(settings.apiKey, {
      serverZone: ANALYTICS_SETTINGS.serverZone,
      flushIntervalMillis: ANALYTICS_SETTINGS.flushIntervalMillis,
      flushQueueSize: ANALYTICS_SETTINGS.flushQueueSize,
      flushMaxRetries: ANALYTICS_SETTINGS.flushMaxRetries,
      sessionTimeout: ANALYTICS_SETTINGS.sessionTimeout,
      identityStorage: ANALYTICS_SETTINGS.identityStorage,
      storageProvider: storedEvents,
      autocapture: {
        pageViews: { trackHistoryChanges: "pathOnly" },
        // Its "Page Location", "Previous Page Location" and the like carry whole URLs: our plugin adds paths.
        pageUrlEnrichment: false,
        fileDownloads: true,
        sessions: true,
        attribution: false,
        formInteractions: false,
        elementInteractions: false,
        frustrationInteractions: false,
        networkTracking: false,
        webVitals: false,
      },
      // Exactly the settings above: no remote override, no extra diagnostics endpoint.
      remoteConfig: { fetchRemoteConfig: false },
      enableDiagnostics: false,
      logLevel: settings.debug ? 3 : 1,
    }).promise;
    await client.add(privacyPlugin("ofertas-privacy-last")).promise;
    return client;
  });
  return amplitude;
}

/** Where session replay's remote configuration is asked for (EU residency, as the events). */
const REPLAY_CONFIG_SERVER = "https://sr-client-cfg.eu.amplitude.com/config";
let replayConfig: { url: string; answer: Promise<Response> } | null = null;

/**
 * The remote configuration, fetched before the plugin starts, with the spec's timing (5 s per
 * try, again after 1 s × the attempt, at most 2 retries: rules/tracking.ts). The SDK's own client
 * gives each try 1 s and retries at once; handed to it, it gets this answer without waiting.
 */
function prefetchReplayConfig(apiKey: string): Promise<Response> {
  const url = `${REPLAY_CONFIG_SERVER}/${encodeURIComponent(apiKey)}?config_group=browser`;
  if (replayConfig?.url !== url) replayConfig = { url, answer: fetchWithReplayPolicy(url, { method: "GET", headers: { Accept: "*/*" } }) };
  return replayConfig.answer;
}

async function fetchReplayConfig(request: {
  url: string;
  method: "GET";
  headers: Record<string, string>;
  signal?: AbortSignal;
}): Promise<Response> {
  if (replayConfig?.url === request.url) return (await replayConfig.answer).clone();
  return fetchWithReplayPolicy(request.url, { method: request.method, headers: request.headers });
}

async function gunzip(body: Uint8Array): Promise<string> {
  return new Response(new Blob([new Uint8Array(body)]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}
async function gzip(text: string): Promise<ArrayBuffer> {
  return new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
}

/**
 * Replay uploads, scrubbed (rules/tracking.ts scrubReplayPayload): the page's address in the
 * recording and the X-Client-Url header are reduced to paths and no address leaves. The batch
 * sent as a page closes goes by beacon first (spec section 7), by a keepalive POST if refused.
 */
async function sendReplay(request: {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string | Uint8Array;
  keepalive?: boolean;
}): Promise<Response> {
  const headers = { ...request.headers };
  for (const name of Object.keys(headers)) if (/^x-client-url$/i.test(name)) headers[name] = scrubText(headers[name]);
  const gzipped = Object.entries(headers).some(([name, value]) => /^content-encoding$/i.test(name) && /gzip/i.test(value));
  const text =
    typeof request.body === "string" ? request.body : gzipped ? await gunzip(request.body) : new TextDecoder().decode(request.body);
  const clean = scrubReplayPayload(text);
  const exit = request.keepalive && !Object.keys(headers).some((name) => /^x-client-version$/i.test(name));
  if (exit && !gzipped && typeof navigator.sendBeacon === "function") {
    const url = new URL(request.url);
    const key = /^Bearer (.+)$/.exec(headers.Authorization ?? "")?.[1];
    if (key) url.searchParams.set("api_key", key);
    if (navigator.sendBeacon(url, new Blob([clean], { type: "application/json" }))) return new Response(null, { status: 200 });
  }
  return fetch(request.url, { method: request.method, headers, body: gzipped ? await gzip(clean) : clean, keepalive: request.keepalive });
}

/**
 * Payment, account, login and mail-link pages are never recorded (rules/tracking.ts
 * isNeverRecorded): the recording stops as a navigation heads for one, before it is drawn, and
 * starts again only once another page has replaced it on screen (allowRecording).
 */
async function syncReplay(client: Amplitude, settings: NonNullable<ClientIntegrations["analytics"]>) {
  replayStart ??= () => syncReplay(client, settings);
  if (!recordable) {
    stopReplay();
    return;
  }
  if (!replay) {
    // Its configuration first, with the spec's timing; then the plugin gets it at once.
    await prefetchReplayConfig(settings.apiKey).catch(() => null);
    if (replay) return; // another page started it meanwhile
    const { sessionReplayPlugin } = await import("@amplitude/plugin-session-replay-browser");
    replay = {
      plugin: sessionReplayPlugin({
        sampleRate: settings.replaySampleRate,
        debugMode: settings.debug,
        privacyConfig: {
          defaultMaskLevel: "medium",
          maskSelector: ["input", "textarea", "select", "[contenteditable]"],
          // A page never recorded, should it ever be on screen while recording: left out whole.
          blockSelector: NEVER_RECORDED_SELECTOR,
        },
        configServerUrl: REPLAY_CONFIG_SERVER,
        handleFetchConfig: fetchReplayConfig,
        handleSendEvents: sendReplay,
      }),
      added: false,
    };
  }
  if (!recordable) return; // navigated on while loading
  if (!replay.added) {
    replay.added = true;
    await client.add(replay.plugin).promise;
  } else {
    await replay.plugin.start();
  }
  // Navigated on while it started: stopReplay stopped it then; once more, now that it has settled.
  if (!recordable) stopReplay();
}

function loadGtm(id: string) {
  if (gtmLoaded) return;
  gtmLoaded = true;
  const w = window as unknown as { dataLayer: unknown[] };
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`;
  // The page's CSP nonce, so a nonce-based policy lets the container in.
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  if (nonce) script.nonce = nonce;
  document.head.appendChild(script);
}

function dataOf<T>(matches: PageContext["matches"], id: string): T | undefined {
  return matches.find((m) => m.id === id)?.data as T | undefined;
}

/** Events that follow from the page itself: an offer seen, a checkout with something in it. */
function pageEvents(ctx: PageContext): FunnelEvent[] {
  const offerPage = dataOf<{ offer: { uuid: string; title: string; category: string; price_options: { actual_price: string }[] } }>(
    ctx.matches,
    "routes/ofertas.$ofertaId",
  );
  if (offerPage?.offer) {
    const { offer } = offerPage;
    const properties: EventProperties = {
      offer_uuid: offer.uuid,
      offer_title: offer.title,
      category: offer.category,
      price: offer.price_options[0]?.actual_price ?? null,
      currency: "EUR",
    };
    return [{ id: `view:${ctx.pageKey}`, name: FUNNEL_EVENTS.offerViewed, properties }];
  }
  const checkout = dataOf<{ lines: { ticketsCount: number }[] }>(ctx.matches, "routes/checkout");
  if (checkout?.lines?.length) {
    const tickets = checkout.lines.reduce((n, l) => n + (l.ticketsCount ?? 0), 0);
    return [{ id: `checkout:${ctx.pageKey}`, name: FUNNEL_EVENTS.checkoutStarted, properties: { offers: checkout.lines.length, tickets } }];
  }
  return [];
}

let deviceId: string | null = null;

/**
 * The payment form («Pagar», posting to /order/) carries the browser's device id, so the server's
 * purchase event joins this session. Added here rather than rendered by the page, so the page's
 * own code knows nothing of analytics; React leaves an extra last child of a form alone.
 */
export function fillDeviceId() {
  if (!deviceId) return;
  for (const form of document.querySelectorAll<HTMLFormElement>("form[method=post]")) {
    if (new URL(form.action, window.location.href).pathname.replace(/\/$/, "") !== "/order") continue;
    let input = form.querySelector<HTMLInputElement>("input[name=analytics_device_id]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "analytics_device_id";
      form.append(input);
    }
    input.value = deviceId;
  }
}

/** The tag manager's view of a page: paths only (a container's tags should read these, not the address bar). */
function dataLayerPage(pathname: string) {
  const origin = window.location.origin;
  const previous = pages.previous || referrerPath();
  return { event: "ofertas.page", page_path: pathname, page_location: origin + pathname, page_referrer: previous ? origin + previous : "" };
}

export async function onPage(ctx: PageContext) {
  notePage(ctx.pathname);
  if (isUntracked(ctx.pathname)) {
    // A page a mail leads to: nothing is loaded or sent here, and a recording stops.
    stopReplay();
    return;
  }
  const { analytics, gtm } = ctx.integrations;
  if (gtm) {
    loadGtm(gtm.id);
    (window as unknown as { dataLayer: unknown[] }).dataLayer.push(dataLayerPage(ctx.pathname));
  }
  const client = analytics ? await loadAmplitude(analytics) : null;
  if (client && analytics) void syncReplay(client, analytics);
  deviceId = client?.getDeviceId() ?? null;
  fillDeviceId();
  // What happened before this page (the action that led here) comes first, then the page.
  for (const event of [...ctx.events, ...pageEvents(ctx)]) {
    if (sent.has(event.id)) continue;
    sent.add(event.id);
    const properties = scrubProperties(event.properties);
    client?.track(event.name, properties);
    if (gtm) (window as unknown as { dataLayer: unknown[] }).dataLayer.push({ event: dataLayerName(event.name), ...properties });
  }
}
