import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PromoCodePage } from "#app/components/promo-codes";
import { promoCodeAction, promoCodeLoader } from "#app/lib/promo-codes.server";
import { seo } from "#app/lib/seo";

export const meta: MetaFunction = () => seo({ title: "Código promocional", description: "Editar un código de descuento.", noindex: true });
export const loader = ({ request, params }: LoaderFunctionArgs) => promoCodeLoader("socios", request, params.id);
export const action = ({ request, params }: ActionFunctionArgs) => promoCodeAction("socios", request, params.id);

export default function PromoCode() {
  return <PromoCodePage base="/socios/codigos" />;
}
