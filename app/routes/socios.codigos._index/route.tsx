import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PromoCodesPage } from "#app/portal/promo-codes";
import { promoCodeAction, promoCodesLoader } from "#app/portal/promo-codes.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Códigos promocionales", description: "Códigos de descuento.", noindex: true });
export const loader = ({ request }: LoaderFunctionArgs) => promoCodesLoader("socios", request);
export const action = ({ request }: ActionFunctionArgs) => promoCodeAction("socios", request);

export default function PromoCodes() {
  return (
    <PromoCodesPage
      base="/socios/codigos"
      intro="Descuentos que tus clientes escriben en el checkout. Cada código vale para una de tus ofertas."
    />
  );
}
