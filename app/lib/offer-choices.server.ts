import { parseWithZod } from "@conform-to/zod";
import { OfferChoiceSearchSchema } from "#lib/schemas/partner";
import { partnerApi } from "./partner.server";

/**
 * The offers an «Oferta» list holds (a promo code's form, the sales filter): the newest
 * PAGE_SIZE_MAX, or those whose words `?oferta=` names (staff have the whole catalogue, a partner
 * may have hundreds, and a select of 100,000 is no choice). `offerCount` says how many there were
 * to choose from. The page adds the offer already chosen when the list does not hold it.
 */
export async function offerChoices(request: Request) {
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: OfferChoiceSearchSchema });
  const offerSearch = (submission.status === "success" && submission.value.oferta) || "";
  const { count, results } = await partnerApi(request).offers({ search: offerSearch });
  const offers = results.map((o) => ({ value: o.uuid, label: o.title }));
  return { offers, offerCount: count, offersListed: results.length, offerSearch };
}
