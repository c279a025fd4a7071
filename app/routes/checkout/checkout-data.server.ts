import type { OfferRating } from "#contract/offers";
import { refundTerms } from "#rules/offer-terms";
import { customerApi, offersApi } from "#app/api-client/client.server";

export type OfferTrust = { merchant: string; rating: OfferRating | null; sold: number; refundTerms: string[] };

/**
 * What the offer page says beside its buy button, said again where the money is decided: each
 * offer's partner and its rating, how many were bought, and its own cancellation terms. An offer
 * that cannot be read any more has its problem on its line already, and no trust line.
 */
export async function offerTrust(uuids: string[]): Promise<Record<string, OfferTrust>> {
  const details = await Promise.all(uuids.map((uuid) => offersApi.get(uuid).catch(() => null)));
  return Object.fromEntries(
    details.flatMap((offer) =>
      offer
        ? [
            [
              offer.uuid,
              {
                merchant: offer.organization.name,
                rating: offer.organization.rating,
                sold: offer.sold_count,
                refundTerms: refundTerms(offer.conditions),
              },
            ],
          ]
        : [],
    ),
  );
}

/** An unpaid reservation of an offer in the cart, which the buyer can pay instead of buying again. */
export type OpenReservation = Awaited<ReturnType<typeof openReservations>>[number];

export async function openReservations(offerUuids: string[], request: Request) {
  const answers = await Promise.all(
    offerUuids.map((uuid) =>
      customerApi
        .reserveExists(uuid, request)
        .then((r) => (r.exists && r.redirect_url ? [{ offerUuid: uuid, redirectUrl: r.redirect_url, expiresAt: r.expires_at }] : []))
        .catch(() => []),
    ),
  );
  // One sale can hold several offers of the cart: offer it once.
  const seen = new Set<string>();
  return answers.flat().filter((r) => !seen.has(r.redirectUrl) && seen.add(r.redirectUrl));
}
