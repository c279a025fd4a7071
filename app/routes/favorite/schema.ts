import { z } from "zod";
import "#rules/zod-es";

/** The heart on a card or an offer page: one form, posted to /favorite. */
export const favoriteToggleSchema = z.object({
  intent: z.literal("toggle"),
  offerUuid: z.string({ required_error: "Falta la oferta." }).uuid("Oferta no válida."),
});
