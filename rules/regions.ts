/**
 * The 50 Spanish provinces, in Spanish alphabetical order; a region's label equals its value (spec
 * section 3). Written in order rather than sorted with Intl.Collator: a phone's browser spent a noticeable while
 * loading the Spanish collation for it, inside the task that starts the page's JavaScript
 * (Lighthouse's TBT). tests/unit/regions-categories.test.ts checks the order against the collator.
 */
export const PROVINCES = [
  "Álava",
  "Albacete",
  "Alicante",
  "Almería",
  "Asturias",
  "Ávila",
  "Badajoz",
  "Barcelona",
  "Burgos",
  "Cáceres",
  "Cádiz",
  "Cantabria",
  "Castellón",
  "Ciudad Real",
  "Córdoba",
  "Cuenca",
  "Girona",
  "Granada",
  "Guadalajara",
  "Guipúzcoa",
  "Huelva",
  "Huesca",
  "Islas Baleares",
  "Jaén",
  "La Coruña",
  "La Rioja",
  "Las Palmas",
  "León",
  "Lleida",
  "Lugo",
  "Madrid",
  "Málaga",
  "Murcia",
  "Navarra",
  "Ourense",
  "Palencia",
  "Pontevedra",
  "Salamanca",
  "Santa Cruz de Tenerife",
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
] as const;

export type Province = (typeof PROVINCES)[number];

export const POPULAR_PROVINCE_RANK: Readonly<Partial<Record<Province, number>>> = {
  Madrid: 1,
  Barcelona: 2,
  Valencia: 3,
  Sevilla: 4,
  Alicante: 5,
  Málaga: 6,
  Murcia: 7,
  Cádiz: 8,
  "Santa Cruz de Tenerife": 9,
  "Las Palmas": 10,
};

export type Region = { label: string; value: string };

export const DEFAULT_REGION: Region = { label: "España", value: "" };

const ALL_REGIONS = PROVINCES.map((p) => ({ label: p, value: p, rank: POPULAR_PROVINCE_RANK[p] ?? null }));

/** Popular provinces first by rank, then the rest in PROVINCES' (alphabetical) order. */
export const REGIONS: readonly (Region & { rank: number | null })[] = [
  ...ALL_REGIONS.filter((r) => r.rank !== null).sort((a, b) => a.rank! - b.rank!),
  ...ALL_REGIONS.filter((r) => r.rank === null),
];

export function isProvince(value: unknown): value is Province {
  return typeof value === "string" && (PROVINCES as readonly string[]).includes(value);
}

/** An unknown or empty value means the whole country. */
export function regionFromValue(value: unknown): Region {
  return isProvince(value) ? { label: value, value } : DEFAULT_REGION;
}
