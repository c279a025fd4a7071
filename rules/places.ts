/**
 * Where «Cerca de mí» measures from without the browser's location: a province's capital, found
 * from the province's name or a postcode (its first two digits are the province's INE number).
 * Written once for the storefront (the place typed) and the API (distances, by the same formula).
 */
import { formatCount } from "#rules/prices";
import { foldText } from "#rules/search";
import { PROVINCES, type Province } from "#rules/regions";

export type Place = { latitude: number; longitude: number };

/** Each province's capital, to about 100 m. */
export const PROVINCE_CENTRES: Record<Province, Place> = {
  Álava: { latitude: 42.846, longitude: -2.672 },
  Albacete: { latitude: 38.994, longitude: -1.858 },
  Alicante: { latitude: 38.345, longitude: -0.481 },
  Almería: { latitude: 36.834, longitude: -2.464 },
  Asturias: { latitude: 43.361, longitude: -5.849 },
  Ávila: { latitude: 40.656, longitude: -4.7 },
  Badajoz: { latitude: 38.878, longitude: -6.97 },
  Barcelona: { latitude: 41.385, longitude: 2.173 },
  Burgos: { latitude: 42.344, longitude: -3.697 },
  Cáceres: { latitude: 39.476, longitude: -6.372 },
  Cádiz: { latitude: 36.527, longitude: -6.288 },
  Cantabria: { latitude: 43.462, longitude: -3.81 },
  Castellón: { latitude: 39.986, longitude: -0.051 },
  "Ciudad Real": { latitude: 38.985, longitude: -3.927 },
  Córdoba: { latitude: 37.888, longitude: -4.779 },
  Cuenca: { latitude: 40.07, longitude: -2.137 },
  Girona: { latitude: 41.979, longitude: 2.821 },
  Granada: { latitude: 37.177, longitude: -3.599 },
  Guadalajara: { latitude: 40.633, longitude: -3.167 },
  Guipúzcoa: { latitude: 43.318, longitude: -1.981 },
  Huelva: { latitude: 37.261, longitude: -6.945 },
  Huesca: { latitude: 42.136, longitude: -0.409 },
  "Islas Baleares": { latitude: 39.57, longitude: 2.65 },
  Jaén: { latitude: 37.779, longitude: -3.785 },
  "La Coruña": { latitude: 43.362, longitude: -8.411 },
  "La Rioja": { latitude: 42.465, longitude: -2.445 },
  "Las Palmas": { latitude: 28.124, longitude: -15.43 },
  León: { latitude: 42.599, longitude: -5.567 },
  Lleida: { latitude: 41.617, longitude: 0.62 },
  Lugo: { latitude: 43.012, longitude: -7.556 },
  Madrid: { latitude: 40.417, longitude: -3.704 },
  Málaga: { latitude: 36.721, longitude: -4.421 },
  Murcia: { latitude: 37.992, longitude: -1.131 },
  Navarra: { latitude: 42.812, longitude: -1.646 },
  Ourense: { latitude: 42.336, longitude: -7.864 },
  Palencia: { latitude: 42.01, longitude: -4.528 },
  Pontevedra: { latitude: 42.431, longitude: -8.644 },
  Salamanca: { latitude: 40.965, longitude: -5.664 },
  "Santa Cruz de Tenerife": { latitude: 28.464, longitude: -16.251 },
  Segovia: { latitude: 40.943, longitude: -4.109 },
  Sevilla: { latitude: 37.389, longitude: -5.984 },
  Soria: { latitude: 41.764, longitude: -2.468 },
  Tarragona: { latitude: 41.119, longitude: 1.245 },
  Teruel: { latitude: 40.344, longitude: -1.107 },
  Toledo: { latitude: 39.863, longitude: -4.027 },
  Valencia: { latitude: 39.47, longitude: -0.376 },
  Valladolid: { latitude: 41.652, longitude: -4.724 },
  Vizcaya: { latitude: 43.263, longitude: -2.935 },
  Zamora: { latitude: 41.503, longitude: -5.745 },
  Zaragoza: { latitude: 41.649, longitude: -0.889 },
};

/** Provinces by their INE number, the first two digits of every postcode there (01 Álava … 50 Zaragoza). */
const BY_INE_NUMBER: readonly Province[] = [
  "Álava",
  "Albacete",
  "Alicante",
  "Almería",
  "Ávila",
  "Badajoz",
  "Islas Baleares",
  "Barcelona",
  "Burgos",
  "Cáceres",
  "Cádiz",
  "Castellón",
  "Ciudad Real",
  "Córdoba",
  "La Coruña",
  "Cuenca",
  "Girona",
  "Granada",
  "Guadalajara",
  "Guipúzcoa",
  "Huelva",
  "Huesca",
  "Jaén",
  "León",
  "Lleida",
  "La Rioja",
  "Lugo",
  "Madrid",
  "Málaga",
  "Murcia",
  "Navarra",
  "Ourense",
  "Asturias",
  "Palencia",
  "Las Palmas",
  "Pontevedra",
  "Salamanca",
  "Santa Cruz de Tenerife",
  "Cantabria",
  "Segovia",
  "Sevilla",
  "Soria",
  "Tarragona",
  "Teruel",
  "Toledo",
  "Valencia",
  "Valladolid",
  "Vizcaya",
  "Zamora",
  "Zaragoza",
];

export const PLACE_UNKNOWN =
  "No reconocemos ese código postal o provincia. Escribe un código postal de 5 cifras o el nombre de una provincia.";

/** The province a postcode («28013») or a province's name («sevilla», «A Coruña») names; null when neither. */
export function provinceOfPlace(text: string): Province | null {
  const typed = text.trim();
  const postcode = /^(\d{2})\d{3}$/.exec(typed);
  if (postcode) return BY_INE_NUMBER[Number(postcode[1]) - 1] ?? null;
  const folded = foldText(typed).replace(/^a /, "la ");
  return PROVINCES.find((p) => foldText(p) === folded) ?? null;
}

/**
 * Kilometres from `from` to a place: equirectangular, longitude shrunk by the cosine of `from`'s
 * latitude, as the API orders «Cerca de mí» (api/services/offers/sorted.ts), so the distances on
 * the cards rise down the list. Within a few metres of the great circle at a city's scale.
 */
export function distanceKm(from: Place, to: Place): number {
  const rad = Math.PI / 180;
  const [a, b] = [from, to];
  const x = (b.longitude - a.longitude) * Math.cos(a.latitude * rad);
  const y = b.latitude - a.latitude;
  return Math.sqrt(x * x + y * y) * rad * 6371;
}

/** «a 850 m», «a 3,2 km», «a 120 km»: a card's distance. */
export function formatDistance(km: number): string {
  if (km < 1) return `a ${Math.max(10, Math.round((km * 1000) / 10) * 10)} m`;
  if (km < 10) return `a ${km.toFixed(1).replace(".", ",")} km`;
  return `a ${formatCount(Math.round(km))} km`;
}
