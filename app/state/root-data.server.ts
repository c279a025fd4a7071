import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { DEFAULT_REGION, isProvince, regionFromValue } from "#rules/regions";
import { ticketCount } from "#rules/cart";
import type { CartLine } from "#app/components/cart-dropdown";
import { config } from "#app/env.server";
import { requestOrigin } from "#app/document/origin.server";
import { clientIntegrations } from "#app/third-party/tracking.server";
import { getCart } from "./cart.server";
import { checkoutLines } from "./checkout-lines.server";
import { getConsent } from "./consent.server";
import { commitSession, getSession, sessionRegion, takeEvents, takeToasts } from "./session.server";
import { favoriteIds } from "./favorites.server";
import { viewer } from "./auth.server";

/**
 * What the layout shows on every page (app/root.tsx exports it as its loader): the region, the
 * cart's panel, the favourites' count, the messages, the consent banner's question. Below the
 * layout, so that the components it renders can name its type without importing the layout.
 */
export async function rootLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const origin = requestOrigin(request);
  if (url.pathname.startsWith("/iframe")) {
    return {
      bare: true as const,
      origin,
      toasts: [],
      region: DEFAULT_REGION,
      cart: { count: 0, lines: [] as CartLine[], subtotalCents: 0, totalCents: 0 },
      favoritesCount: 0,
      favoriteIds: [] as string[],
      consentAsked: true,
      integrations: null,
      events: [],
      contacts: null,
      viewer: null,
      sandboxNotice: false,
    };
  }
  const [session, cart, consent] = await Promise.all([getSession(request), getCart(request), getConsent(request)]);
  const toasts = takeToasts(session);
  const favoriteIdsPromise = favoriteIds(request, session);
  const integrations = clientIntegrations(consent);
  // Read by the consented tools' script (added by entry.server.tsx), never by the app's own code.
  const events = integrations?.analytics || integrations?.gtm ? takeEvents(session) : [];
  // The same join of cart and offers as the checkout; a failing API leaves the panel empty, not the page.
  const joined = cart.items.length ? await checkoutLines(cart).catch(() => ({ lines: [], totalCents: 0 })) : { lines: [], totalCents: 0 };
  const lines: CartLine[] = joined.lines.flatMap((l) =>
    l.option && !l.problem
      ? [
          {
            offerUuid: l.offerUuid,
            title: l.title,
            optionTitle: l.option.title,
            image: l.image,
            ticketsCount: l.ticketsCount,
            lineCents: l.unitCents * l.ticketsCount,
          },
        ]
      : [],
  );
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineCents, 0);
  const ids = await favoriteIdsPromise;
  const { SUPPORT_EMAIL, BUSINESS_EMAIL, sandboxNotice } = config();
  return data(
    {
      bare: false as const,
      origin,
      toasts,
      // A listing filtered by ?region= speaks of that region, in the header too.
      region: isProvince(url.searchParams.get("region")) ? regionFromValue(url.searchParams.get("region")) : sessionRegion(session),
      cart: { count: ticketCount(cart), lines, subtotalCents, totalCents: Math.min(joined.totalCents, subtotalCents) },
      favoritesCount: ids.length,
      favoriteIds: ids,
      consentAsked: consent !== null,
      integrations,
      events,
      contacts: { supportEmail: SUPPORT_EMAIL, businessEmail: BUSINESS_EMAIL },
      viewer: viewer(session),
      sandboxNotice,
    },
    toasts.length || events.length ? { headers: { "Set-Cookie": await commitSession(session) } } : undefined,
  );
}
