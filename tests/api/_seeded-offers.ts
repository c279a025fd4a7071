/**
 * Two offers of the demo catalogue that tests name by what they sell: a paella in Barcelona and a
 * brunch at Café Olmo in Madrid, each with its first price option.
 */
import { seedUuid } from "#api/db/seed";
import type { Option } from "./_helpers";

export const PAELLA_OFFER = seedUuid("offer", "paella-marinera-barceloneta");
export const BRUNCH_OFFER = seedUuid("offer", "brunch-cafe-olmo-malasana");

export const PAELLA: Option = {
  uuid: seedUuid("price-option", "paella-marinera-barceloneta:0"),
  offerId: PAELLA_OFFER,
  price: "39.90",
};
export const BRUNCH: Option = {
  uuid: seedUuid("price-option", "brunch-cafe-olmo-malasana:0"),
  offerId: BRUNCH_OFFER,
  price: "24.90",
};
