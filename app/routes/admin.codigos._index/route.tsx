import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PromoCodesPage } from "#app/portal/promo-codes";
import { promoCodeAction, promoCodesLoader } from "#app/portal/promo-codes.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Códigos promocionales", description: "Códigos de descuento.", noindex: true });
export const loader = ({ request }: LoaderFunctionArgs) => promoCodesLoader("admin", request);
export const action = ({ request }: ActionFunctionArgs) => promoCodeAction("admin", request);

export default function PromoCodes() {
  return <PromoCodesPage base="/admin/codigos" intro="Todos los códigos de la tienda: los de toda la tienda y los de cada oferta." />;
}
