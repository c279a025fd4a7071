/** What the offer page needs to show where an offer is (app/components/offer-map.tsx). */
export type OfferMapData = {
  lat: number;
  lon: number;
  /** Our own URL of the static map (served through this server), or null when not configured. */
  staticSrc: string | null;
  directionsUrl: string;
  /** The interactive map's tiles: only with marketing consent and a configured tiles URL. */
  tiles: { url: string; attribution: string } | null;
};
