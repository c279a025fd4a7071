/**
 * Analytics, session replay and the tag manager. Only the consented tools' entry
 * (third-party.client.ts) imports this module, and the server adds that entry's script tag to a
 * document only after consent: none of it, nor any vendor code, is in a page's first-load
 * JavaScript.
 */
import type { EnrichmentPlugin, Event } from "@amplitude/analytics-core";
import type { SessionReplayPlugin } from "@amplitude/plugin-session-replay-browser";
import { isReplayExcluded } from "#rules/consent";
import {
  ANALYTICS_SETTINGS,
  dataLayerName,
  FUNNEL_EVENTS,
  scrubProperties,
  SESSION_REPLAY_SETTINGS,
  type ClientIntegrations,
  type EventProperties,
  type FunnelEvent,
} from "#rules/tracking";

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
let gtmLoaded = false;
const sent = new Set<string>();

/** Removes emails and URL queries from every event, whatever plugin produced it. */
const scrubPlugin: EnrichmentPlugin = {
  name: "ofertas-scrub",
  type: "enrichment",
  async execute(event: Event) {
    if (event.event_properties) event.event_properties = scrubProperties(event.event_properties as Record<string, unknown>);
    if (event.user_properties)
      event.user_properties = scrubProperties(event.user_properties as unknown as Record<string, unknown>) as typeof event.user_properties;
    return event;
  },
};

function loadAmplitude(settings: NonNullable<ClientIntegrations["analytics"]>): Promise<Amplitude> {
  amplitude ??= import("@amplitude/analytics-browser").then(async ({ createInstance }) => {
    const client = createInstance();
    await client.add(scrubPlugin).promise;
    await client.init(settings.apiKey, {
      serverZone: ANALYTICS_SETTINGS.serverZone,
      flushIntervalMillis: ANALYTICS_SETTINGS.flushIntervalMillis,
      flushQueueSize: ANALYTICS_SETTINGS.flushQueueSize,
      flushMaxRetries: ANALYTICS_SETTINGS.flushMaxRetries,
      sessionTimeout: ANALYTICS_SETTINGS.sessionTimeout,
      identityStorage: ANALYTICS_SETTINGS.identityStorage,
      autocapture: {
        pageViews: { trackHistoryChanges: "pathOnly" },
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
    return client;
  });
  return amplitude;
}

/** Spec section 9: remote config timeout 5 s, retry after 1 s × attempt, at most 2 retries. */
async function fetchReplayConfig(request: {
  url: string;
  method: "GET";
  headers: Record<string, string>;
  signal?: AbortSignal;
}): Promise<Response> {
  let attempt = 0;
  for (;;) {
    try {
      const signal = AbortSignal.any([
        AbortSignal.timeout(SESSION_REPLAY_SETTINGS.remoteConfigTimeoutMs),
        ...(request.signal ? [request.signal] : []),
      ]);
      const response = await fetch(request.url, { method: request.method, headers: request.headers, signal });
      if (response.ok || attempt >= SESSION_REPLAY_SETTINGS.maxRetries || response.status < 500) return response;
    } catch (error) {
      if (attempt >= SESSION_REPLAY_SETTINGS.maxRetries || request.signal?.aborted) throw error;
    }
    attempt += 1;
    await new Promise((resolve) => setTimeout(resolve, SESSION_REPLAY_SETTINGS.retryDelayMs * attempt));
  }
}

/** Payment and account pages are never recorded: the plugin is stopped before they render. */
async function syncReplay(client: Amplitude, settings: NonNullable<ClientIntegrations["analytics"]>, pathname: string) {
  if (isReplayExcluded(pathname)) {
    replay?.plugin.stop();
    return;
  }
  if (!replay) {
    const { sessionReplayPlugin } = await import("@amplitude/plugin-session-replay-browser");
    replay = {
      plugin: sessionReplayPlugin({
        sampleRate: settings.replaySampleRate,
        debugMode: settings.debug,
        privacyConfig: { defaultMaskLevel: "medium", maskSelector: ["input", "textarea", "select", "[contenteditable]"] },
        handleFetchConfig: fetchReplayConfig,
      }),
      added: false,
    };
  }
  if (isReplayExcluded(window.location.pathname)) return; // navigated on while loading
  if (!replay.added) {
    replay.added = true;
    await client.add(replay.plugin).promise;
  } else {
    await replay.plugin.start();
  }
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

export async function onPage(ctx: PageContext) {
  const { analytics, gtm } = ctx.integrations;
  if (gtm) loadGtm(gtm.id);
  const client = analytics ? await loadAmplitude(analytics) : null;
  if (client && analytics) void syncReplay(client, analytics, ctx.pathname);
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
