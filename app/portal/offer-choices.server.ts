import { parseWithZod } from "@conform-to/zod";
import { OfferChoiceSearchSchema } from "#contract/partner";
import { partnerApi } from "./partner.server";

/**
 * The offers an «Oferta» list holds (a promo code's form, the sales filter): the newest
 * PAGE_SIZE_MAX, or those whose words `?oferta=` names (staff have the whole catalogue, a partner
 * may have hundreds, and a select of 100,000 is no choice). `offerCount` says how many there were
 * to choose from. The page adds the offer already chosen with keepChosen().
 */
export async function offerChoices(request: Request) {
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: OfferChoiceSearchSchema });
  const offerSearch = (submission.status === "success" && submission.value.oferta) || "";
  const { count, results } = await partnerApi(request).offers({ search: offerSearch });
  const offers = results.map((o) => ({ value: o.uuid, label: o.title }));
  return { offers, offerCount: count, offersListed: results.length, offerSearch };
}

/**
 * The offer already chosen (a code's, the one «Ventas» is filtered by) stays in the list, at its
 * head, when the list does not hold it (older than the newest 100, or not what was searched).
 * `title` is asked only then, for that id.
 */
export async function keepChosen(
  choices: { offers: { value: string; label: string }[] },
  id: string | null | undefined,
  title: (id: string) => Promise<string | null | undefined> | string | null | undefined,
) {
  if (!id || choices.offers.some((o) => o.value === id)) return;
  const label = await title(id);
  if (label) choices.offers.unshift({ value: id, label });
}
