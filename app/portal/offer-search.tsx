import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { OfferChoiceSearchSchema } from "#contract/partner";
import { TextField } from "#app/components/form-field";
import { countOf, plural } from "#rules/plurals";

/** From this many offers an «Oferta» list is long to scan on a phone, and gets a search. */
const OFFER_SEARCH_FROM = 20;

/**
 * A GET form that narrows an «Oferta» list (offerChoices in app/portal/offer-choices.server.ts) to
 * the offers whose title or summary has words starting with those typed (the API's search), for
 * long lists and for lists that cannot hold every offer (staff choose among the whole catalogue).
 * It works without JavaScript. It reloads the page, so it comes before the form it serves; `keep`
 * carries that form's other GET values along (the sales filter's dates).
 * Not named offer-…: vite.config.ts puts those in the cards chunk that every listing page loads.
 */
export function OfferChoiceSearch({
  shown,
  count,
  search,
  keep = {},
}: {
  shown: number;
  count: number;
  search: string;
  keep?: Record<string, string | undefined>;
}) {
  const [form, fields] = useForm({
    id: "offer-choice-search",
    constraint: getZodConstraint(OfferChoiceSearchSchema),
    defaultValue: { oferta: search },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferChoiceSearchSchema }),
  });
  if (count <= OFFER_SEARCH_FROM && !search) return null;
  const found = search
    ? `${countOf(count, "oferta", "ofertas")} ${plural(count, "coincide", "coinciden")} con «${search}»`
    : `Hay ${countOf(count, "oferta", "ofertas")}`;
  return (
    <Form method="get" className="filters" {...getFormProps(form)}>
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <TextField
        field={fields.oferta}
        label="Buscar la oferta por título o resumen"
        type="search"
        hint={count > shown ? `${found}: la lista muestra ${plural(shown, "la más reciente", `las ${shown} más recientes`)}.` : `${found}.`}
      />
      <button type="submit" className="btn btn-secondary">
        Buscar oferta
      </button>
    </Form>
  );
}
