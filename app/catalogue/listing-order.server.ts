import { isSort, LISTING_MESSAGES, priceBound, type Sort } from "#rules/listing-order";
import { distanceKm, formatDistance, PLACE_UNKNOWN, PROVINCE_CENTRES, provinceOfPlace, type Place } from "#rules/places";
import { isProvince, type Region } from "#rules/regions";
import type { OfferQuery } from "#app/api-client/client.server";
import type { OfferSummary } from "#contract/offers";

/**
 * «Ordenar», the price range and «Cerca de mí» as the URL asks for them (GET parameters: the same
 * without JavaScript). What was typed goes back into the form as typed; what cannot be used is
 * left out of the API's query and said, never an error page.
 */
export type ListingOrder = {
  sort: Sort;
  priceMin: string;
  priceMax: string;
  /** The postcode or province typed, as typed. */
  near: string;
  /** Where distances are measured from, and how the page names it. */
  place: (Place & { label: string }) | null;
  problem: string | null;
  /** The browser's position the URL carries, kept for the next submit of the form. */
  position: { lat: string; lng: string } | null;
};

const coordinate = (value: string | null, limit: number): number | null => {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
};

export function listingOrder(url: URL, region: Region): { order: ListingOrder; query: OfferQuery } {
  const params = url.searchParams;
  const requested = params.get("sort");
  let sort: Sort = isSort(requested) ? requested : "recommended";
  const problems: string[] = [];
  const query: OfferQuery = {};

  const min = priceBound(params.get("price_min"));
  const max = priceBound(params.get("price_max"));
  for (const bound of [min, max]) if (bound !== null && typeof bound === "object") problems.push(bound.error);
  const minEuros = typeof min === "number" ? min : undefined;
  const maxEuros = typeof max === "number" ? max : undefined;
  if (minEuros !== undefined && maxEuros !== undefined && minEuros > maxEuros) problems.push(LISTING_MESSAGES.reversed);
  else {
    query.price_min = minEuros;
    query.price_max = maxEuros;
  }

  const near = (params.get("near") ?? "").slice(0, 60);
  const latitude = coordinate(params.get("lat"), 90);
  const longitude = coordinate(params.get("lng"), 180);
  let place: ListingOrder["place"] = null;
  // A place typed wins over a position kept from before: it is what the person just asked for.
  if (near.trim()) {
    const province = provinceOfPlace(near);
    if (province) place = { ...PROVINCE_CENTRES[province], label: province };
    else problems.push(PLACE_UNKNOWN);
  } else if (latitude !== null && longitude !== null) place = { latitude, longitude, label: "tu ubicación" };
  else if (sort === "nearby" && isProvince(region.value)) {
    place = { ...PROVINCE_CENTRES[region.value], label: region.value };
  }
  if (sort === "nearby" && !place) {
    if (!problems.includes(PLACE_UNKNOWN)) problems.push(LISTING_MESSAGES.noPlace);
    sort = "recommended";
  }
  if (sort !== "recommended") query.sort = sort;
  if (sort === "nearby" && place) {
    query.lat = place.latitude;
    query.lng = place.longitude;
  }
  return {
    order: {
      sort,
      priceMin: params.get("price_min") ?? "",
      priceMax: params.get("price_max") ?? "",
      near,
      place,
      problem: problems[0] ?? null,
      position: latitude !== null && longitude !== null ? { lat: String(latitude), lng: String(longitude) } : null,
    },
    query,
  };
}

/** «a 3,2 km» from the place the listing is ordered by, for a card; null without one or for an offer with no position. */
export function distanceText(order: ListingOrder, offer: Pick<OfferSummary, "latitude" | "longitude">): string | null {
  if (order.sort !== "nearby" || !order.place || offer.latitude === null || offer.longitude === null) return null;
  return formatDistance(distanceKm(order.place, { latitude: offer.latitude, longitude: offer.longitude }));
}
