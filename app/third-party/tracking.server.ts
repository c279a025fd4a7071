import { randomUUID } from "node:crypto";
import { isGranted, type ConsentChoice } from "#rules/consent";
import { scrubProperties, type ClientIntegrations, type EventProperties, type FunnelEventName, type FunnelEvent } from "#rules/tracking";
import { getConsent } from "#app/state/consent.server";
import { config } from "#app/env.server";

/** The tools this visitor's browser may load: configured, and their category accepted. */
export function clientIntegrations(choice: ConsentChoice | null): ClientIntegrations | null {
  const c = config();
  const analytics =
    isGranted(choice, "analytics") && c.ANALYTICS_API_KEY
      ? { apiKey: c.ANALYTICS_API_KEY, replaySampleRate: c.SESSION_REPLAY_SAMPLE_RATE, debug: !c.isProduction }
      : null;
  const gtm = isGranted(choice, "marketing") && c.GTM_ID ? { id: c.GTM_ID } : null;
  const maps = isGranted(choice, "marketing") && Boolean(c.MAPS_TILES_URL);
  return analytics || gtm || maps ? { analytics, gtm, maps } : null;
}

/** Whether a tool that receives funnel events (analytics, the tag manager) is on. */
function funnelOn(integrations: ClientIntegrations | null): boolean {
  return Boolean(integrations?.analytics || integrations?.gtm);
}

/**
 * Funnel events of an action, for the next page to send. Nothing is recorded (not a byte added
 * to the cookie) unless a tool that receives them is configured and consented.
 */
export async function funnelEvents(
  request: Request,
  events: ({ name: FunnelEventName; properties?: EventProperties } | null | undefined)[],
): Promise<FunnelEvent[]> {
  const wanted = events.filter((e): e is { name: FunnelEventName; properties?: EventProperties } => Boolean(e));
  if (wanted.length === 0) return [];
  if (!funnelOn(clientIntegrations(await getConsent(request)))) return [];
  return wanted.map((e) => ({ id: randomUUID().slice(0, 13), name: e.name, properties: scrubProperties(e.properties ?? {}) }));
}

/**
 * What the API needs for the server-side purchase event: nothing without analytics consent (the
 * event is then never sent), otherwise the browser's device id if its JavaScript supplied one.
 */
export async function purchaseAnalytics(request: Request, formData: FormData): Promise<{ device_id: string | null } | undefined> {
  if (!clientIntegrations(await getConsent(request))?.analytics) return undefined;
  const id = formData.get("analytics_device_id");
  return { device_id: typeof id === "string" && /^[\w.:-]{5,100}$/.test(id) ? id : null };
}
