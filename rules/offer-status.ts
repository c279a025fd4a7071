/**
 * An offer's life: draft → pending_review → active ↔ paused → archived. Partners write and submit;
 * only staff put an offer on sale or send it back with a reason. An active offer whose sale end
 * has passed is ended: off the listings, its page still there; a later sale end puts it back on
 * sale (rules/sale-end.ts, statusForSaleEnd). Written once, used by the API
 * (which decides) and the partner and staff screens (which only offer the buttons that can work).
 */
export const OFFER_STATUSES = ["draft", "pending_review", "active", "paused", "ended", "archived"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_STATUS_LABELS: Record<OfferStatus, string> = {
  draft: "Borrador",
  pending_review: "Pendiente de revisión",
  active: "Activa",
  paused: "Pausada",
  ended: "Venta terminada",
  archived: "Archivada",
};

type Transition = { from: OfferStatus; to: OfferStatus; staffOnly?: boolean; label: string };

export const OFFER_TRANSITIONS: readonly Transition[] = [
  { from: "draft", to: "pending_review", label: "Enviar a revisión" },
  { from: "pending_review", to: "draft", label: "Devolver a borrador" },
  { from: "pending_review", to: "active", staffOnly: true, label: "Aprobar" },
  { from: "active", to: "paused", label: "Pausar" },
  { from: "paused", to: "active", label: "Reanudar" },
  { from: "draft", to: "archived", label: "Archivar" },
  { from: "pending_review", to: "archived", label: "Archivar" },
  { from: "active", to: "archived", label: "Archivar" },
  { from: "paused", to: "archived", label: "Archivar" },
  { from: "ended", to: "archived", label: "Archivar" },
];

export function isOfferStatus(value: unknown): value is OfferStatus {
  return typeof value === "string" && (OFFER_STATUSES as readonly string[]).includes(value);
}

/** Why this change of status is not allowed, in Spanish; null when it is. */
export function transitionProblem(from: OfferStatus, to: OfferStatus, { staff }: { staff: boolean }): string | null {
  if (from === to) return null;
  const t = OFFER_TRANSITIONS.find((x) => x.from === from && x.to === to);
  if (!t) return `Una oferta en estado «${OFFER_STATUS_LABELS[from]}» no puede pasar a «${OFFER_STATUS_LABELS[to]}».`;
  if (t.staffOnly && !staff) return "Solo el equipo de ofertas puede aprobar una oferta.";
  return null;
}

/** The changes of status a user may ask for from here, for the screens' buttons. */
export function transitionsFrom(from: OfferStatus, { staff }: { staff: boolean }): Transition[] {
  return OFFER_TRANSITIONS.filter((t) => t.from === from && (staff || !t.staffOnly));
}

/** Only an offer that is on sale shows in the shop; the others are its organisation's business. */
export const PUBLIC_OFFER_STATUS: OfferStatus = "active";
