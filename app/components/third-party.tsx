import { useLocation, useMatches } from "@remix-run/react";
import { useEffect } from "react";
import type { ClientIntegrations, FunnelEvent } from "#lib/tracking";

/**
 * The only trace of analytics in the first-load JavaScript: with consent (integrations not null)
 * it imports the tracking chunk, which brings the vendors' code; without it, nothing is fetched.
 */
export function ThirdParty({ integrations, events }: { integrations: ClientIntegrations | null; events: FunnelEvent[] }) {
  const location = useLocation();
  const matches = useMatches();
  useEffect(() => {
    if (!integrations) return;
    const ctx = { integrations, events, pathname: location.pathname, pageKey: location.key, matches: matches.map((m) => ({ id: m.id, data: m.data })) };
    import("#app/lib/tracking.client").then((m) => m.onPage(ctx)).catch(() => {}); // a blocked vendor never breaks the shop
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one run per page visit and per new batch of events
  }, [JSON.stringify(integrations), location.key, events]);
  return null;
}
