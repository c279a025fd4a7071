/** Offer categories in the spec's order; "recommended" heads the list but is not a page. */
export const CATEGORY_IDS = [
  "leisure",
  "entertainment",
  "restaurants",
  "health_and_beauty",
  "services",
  "family_plans",
  "travel",
  "product",
  "training",
] as const;

export type CategoryId = (typeof CATEGORY_IDS)[number];

export const CATEGORY_LABELS: Record<CategoryId | "recommended", string> = {
  recommended: "Recomendadas",
  leisure: "Ocio",
  entertainment: "Entretenimiento",
  restaurants: "Restaurantes",
  health_and_beauty: "Salud y belleza",
  services: "Servicios",
  family_plans: "Planes en familia",
  travel: "Viajes",
  product: "Productos",
  training: "Formación",
};

export const CATEGORY_MENU: readonly { id: CategoryId | "recommended"; label: string; href: string }[] = [
  { id: "recommended", label: CATEGORY_LABELS.recommended, href: "/" },
  ...CATEGORY_IDS.map((id) => ({ id, label: CATEGORY_LABELS[id], href: `/ofertas/category/${id}/` })),
];

export function isCategoryId(value: unknown): value is CategoryId {
  return typeof value === "string" && (CATEGORY_IDS as readonly string[]).includes(value);
}

export const OFFER_TYPES = ["regular", "subscription", "direct", "promo"] as const;
export type OfferType = (typeof OFFER_TYPES)[number];

export const OFFER_TYPE_LABELS: Record<OfferType, string> = {
  regular: "Normal",
  subscription: "Suscripción",
  direct: "Venta directa",
  promo: "Promoción",
};
