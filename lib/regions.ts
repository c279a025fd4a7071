/** The 50 Spanish provinces; a region's label equals its value (spec section 3). */
export const PROVINCES = [
  "Álava", "Albacete", "Alicante", "Almería", "Asturias", "Ávila", "Badajoz", "Barcelona",
  "Burgos", "Cáceres", "Cádiz", "Cantabria", "Castellón", "Ciudad Real", "Córdoba", "Cuenca",
  "Girona", "Granada", "Guadalajara", "Guipúzcoa", "Huelva", "Huesca", "Islas Baleares", "Jaén",
  "La Coruña", "La Rioja", "Las Palmas", "León", "Lleida", "Lugo", "Madrid", "Málaga", "Murcia",
  "Navarra", "Ourense", "Palencia", "Pontevedra", "Salamanca", "Santa Cruz de Tenerife",
  "Segovia", "Sevilla", "Soria", "Tarragona", "Teruel", "Toledo", "Valencia", "Valladolid",
  "Vizcaya", "Zamora", "Zaragoza",
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

const collator = new Intl.Collator("es");

/** Popular provinces first by rank, then the rest alphabetically in Spanish order. */
export const REGIONS: readonly (Region & { rank: number | null })[] = [...PROVINCES]
  .map((p) => ({ label: p, value: p, rank: POPULAR_PROVINCE_RANK[p] ?? null }))
  .sort((a, b) => {
    if (a.rank !== null && b.rank !== null) return a.rank - b.rank;
    if (a.rank !== null) return -1;
    if (b.rank !== null) return 1;
    return collator.compare(a.label, b.label);
  });

export function isProvince(value: unknown): value is Province {
  return typeof value === "string" && (PROVINCES as readonly string[]).includes(value);
}

/** An unknown or empty value means the whole country. */
export function regionFromValue(value: unknown): Region {
  return isProvince(value) ? { label: value, value } : DEFAULT_REGION;
}
