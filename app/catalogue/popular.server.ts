import { offersApi } from "#app/api-client/client.server";
import { toCard, type OfferCardData } from "#app/components/offer-card-data";
import { getSession, sessionRegion } from "#app/state/session.server";

/** How many offers «Populares ahora» shows in the search dialog and on pages that found nothing. */
export const SUGGESTED_POPULAR_COUNT = 4;

/**
 * «Populares ahora» (the most bought this week) in the visitor's region; a shop with no sales yet
 * shows its recommended ones. Never fails: a failure is an empty list.
 */
export async function popularCards(request: Request, count = SUGGESTED_POPULAR_COUNT): Promise<OfferCardData[]> {
  const region = sessionRegion(await getSession(request)).value;
  return offersApi
    .popular({ page_size: count, region })
    .then((r) => (r.results.length ? r.results : offersApi.mainpage({ page_size: count, region }).then((m) => m.results)))
    .then((list) => list.map(toCard))
    .catch(() => []);
}
