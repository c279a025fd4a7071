import { isGranted, type ConsentChoice } from "#rules/consent";
import type { OfferMapData } from "#app/components/offer-map-data";
import { config } from "#app/env.server";

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);

export function offerMap(
  offer: { uuid: string; latitude: number | null; longitude: number | null; address: string; region: string },
  choice: ConsentChoice | null,
): OfferMapData | null {
  if (offer.latitude === null || offer.longitude === null) return null;
  const c = config();
  const destination = `${offer.latitude},${offer.longitude}`;
  return {
    lat: offer.latitude,
    lon: offer.longitude,
    staticSrc: c.MAPS_STATIC_URL ? `/mapa-estatico/${offer.uuid}` : null,
    directionsUrl: `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`,
    tiles:
      c.MAPS_TILES_URL && isGranted(choice, "marketing")
        ? { url: fill(c.MAPS_TILES_URL, { key: c.MAPS_API_KEY ?? "" }), attribution: c.MAPS_ATTRIBUTION }
        : null,
  };
}

/** The provider's static map URL for a point (MAPS_STATIC_URL with {lat}, {lon} and {key}). */
export function staticMapUrl(lat: number, lon: number): string | null {
  const c = config();
  if (!c.MAPS_STATIC_URL) return null;
  return fill(c.MAPS_STATIC_URL, { lat: String(lat), lon: String(lon), key: encodeURIComponent(c.MAPS_API_KEY ?? "") });
}
