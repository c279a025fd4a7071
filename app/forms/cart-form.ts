import { z } from "zod";
import { MAX_TICKETS_PER_ITEM, PromoCodeText } from "#contract/sales";

const tickets = z.coerce
  .number({ invalid_type_error: "Indica cuántas entradas quieres." })
  .int("Indica un número entero de entradas.")
  .min(1, "Como mínimo 1 entrada.")
  .max(MAX_TICKETS_PER_ITEM, `Como máximo ${MAX_TICKETS_PER_ITEM} entradas.`);
const offerUuid = z.string().uuid("Oferta no válida.");

/** Every change to the cart, one form each, named by intent (Hydrogen-style single cart action). */
export const CartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    offerUuid,
    priceOptionUuid: z.string({ required_error: "Elige una opción." }).uuid("Elige una opción."),
    ticketsCount: tickets,
    slotId: z.string().max(64).optional(),
  }),
  z.object({ intent: z.literal("update"), offerUuid, ticketsCount: tickets }),
  z.object({ intent: z.literal("remove"), offerUuid }),
  z.object({ intent: z.literal("clear") }),
  z.object({ intent: z.literal("gift"), offerUuid, gift: z.enum(["on", "off"]).default("off") }),
  // The gift's own fields are checked by giftDetailsSchema (rules/gifts.ts) in the operation.
  z.object({
    intent: z.literal("gift-details"),
    offerUuid,
    recipient_name: z.string().optional(),
    sender_name: z.string().optional(),
    recipient_email: z.string().optional(),
    message: z.string().optional(),
    send_on: z.string().optional(),
  }),
  z.object({ intent: z.literal("promo-add"), promo_code: PromoCodeText }),
  z.object({ intent: z.literal("promo-remove"), promo_code: PromoCodeText }),
  z.object({ intent: z.literal("promo-clear") }),
]);

export type CartAction = z.infer<typeof CartActionSchema>;
export type CartIntent = CartAction["intent"];

/** The ticket field of one option on the offer page: each option has its own, with its own maximum. */
export const optionTicketsField = (priceOptionUuid: string) => `ticketsCount.${priceOptionUuid}`;

/**
 * A posted cart form's fields, with the offer page's ticket count read from the chosen option's
 * field (without JavaScript every option's field is posted; only the chosen one counts).
 */
export function withChosenTickets(fields: Record<string, FormDataEntryValue>): Record<string, FormDataEntryValue> {
  const option = fields.priceOptionUuid;
  if (fields.ticketsCount !== undefined || typeof option !== "string") return fields;
  const chosen = fields[optionTicketsField(option)];
  return chosen === undefined ? fields : { ...fields, ticketsCount: chosen };
}
