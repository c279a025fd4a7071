import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PromoCodePage } from "#app/portal/promo-codes";
import { promoCodeAction, promoCodeLoader } from "#app/portal/promo-codes.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Código promocional", description: "Editar un código de descuento.", noindex: true });
export const loader = ({ request, params }: LoaderFunctionArgs) => promoCodeLoader("admin", request, params.id);
export const action = ({ request, params }: ActionFunctionArgs) => promoCodeAction("admin", request, params.id);

export default function PromoCode() {
  return <PromoCodePage base="/admin/codigos" />;
}
