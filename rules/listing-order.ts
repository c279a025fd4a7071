/**
 * «Ordenar» and the price range of listings and category pages, written once: the API orders and
 * filters by them, the storefront's form offers them as GET parameters (they work without JS).
 */
export const SORTS = ["recommended", "price", "discount", "rating", "nearby"] as const;
export type Sort = (typeof SORTS)[number];

export const SORT_LABELS: Record<Sort, string> = {
  recommended: "Recomendadas",
  price: "Precio",
  discount: "Descuento",
  rating: "Valoración",
  nearby: "Cerca de mí",
};

export function isSort(value: unknown): value is Sort {
  return typeof value === "string" && (SORTS as readonly string[]).includes(value);
}

/** The price range is in whole euros, on the price a card shows (its cheapest option on sale). */
export const PRICE_RANGE_MAX_EUROS = 100_000;

export const LISTING_MESSAGES = {
  notWhole: "El precio debe ser un número entero de euros.",
  outOfRange: `El precio debe estar entre 0 y ${PRICE_RANGE_MAX_EUROS} €.`,
  reversed: "El precio mínimo es mayor que el máximo.",
  noPlace: "Para ordenar por cercanía, indica tu ubicación, tu código postal o tu provincia.",
} as const;

/** A price bound typed in the form: whole euros, or null when blank; a message when it is not one. */
export function priceBound(value: string | null | undefined): number | null | { error: string } {
  const text = (value ?? "").trim().replace(/\s*€$/, "");
  if (text === "") return null;
  if (!/^\d+$/.test(text)) return { error: LISTING_MESSAGES.notWhole };
  const euros = Number(text);
  return euros > PRICE_RANGE_MAX_EUROS ? { error: LISTING_MESSAGES.outOfRange } : euros;
}
