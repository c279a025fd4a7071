import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { isUuid } from "#rules/uuid";
import { ApiError, salesApi } from "#app/api-client/client.server";
import { seo } from "#app/document/seo";
import { PurchaseCoupons } from "#app/routes/order+shared/purchase-coupons";
import { purchaseQrs } from "#app/routes/order+shared/coupon-qr.server";
import { signedCouponLinks } from "#app/routes/order+shared/links";
import { ErrorPage } from "#app/components/error-page";
import { refundAction } from "#app/routes/order+shared/refund.server";
import { WITHDRAWAL_PROMISE } from "#rules/refunds";

export const meta: MetaFunction = () => seo({ title: "Tus cupones", description: "Los cupones de tu compra.", noindex: true });

/** The link in the purchase confirmation mail: the signature stands in for an account. */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const sale = params.get("sale");
  const sig = params.get("sig");
  if (!sale || !sig) throw redirect("/");
  if (!isUuid(sale)) throw data(null, { status: 404 });
  try {
    const purchase = await salesApi.signedPurchase(sale.toLowerCase(), sig);
    const { pdf } = signedCouponLinks(purchase.sale_id, sig);
    return data(
      { purchase, pdf, qrs: purchaseQrs(purchase.items) },
      // private: the offline worker keeps it for its buyer (app/offline/keep.ts); no-store: no
      // other cache does, so nothing of it outlives a logout.
      { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } },
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}

/** «Solicitar devolución» of one coupon: the link's signature stands in for the account here too. */
export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const sale = url.searchParams.get("sale");
  const sig = url.searchParams.get("sig");
  if (!sale || !sig || !isUuid(sale)) throw data(null, { status: 404 });
  return refundAction(request, { saleId: sale.toLowerCase(), sig, back: signedCouponLinks(sale.toLowerCase(), sig).page });
}

export default function OrderCoupons() {
  const { purchase, pdf, qrs } = useLoaderData<typeof loader>();
  return (
    <section className="narrow">
      <h1>Tus cupones</h1>
      <p>
        Pedido nº <strong>{purchase.sale_id.slice(0, 8).toUpperCase()}</strong> para <strong>{purchase.email}</strong>. Enseña cada código
        (impreso o en el móvil) al llegar al establecimiento.
      </p>
      <p>
        {/* No `download` attribute: the answer is an attachment anyway, and Chromium passes a
            download link around the offline worker, which then could not keep the PDF. */}
        <a href={pdf} className="btn">
          Descargar los cupones en PDF
        </a>
      </p>
      <PurchaseCoupons purchase={purchase} details qrs={qrs} refunds />
      <section id="devolucion" aria-labelledby="devolucion-title" className="refund-help">
        <h2 id="devolucion-title" className="small-heading">
          Devoluciones
        </h2>
        <p className="small muted">
          {WITHDRAWAL_PROMISE.charAt(0).toUpperCase() + WITHDRAWAL_PROMISE.slice(1)}: pulsa «Solicitar devolución» bajo el cupón. Si ha
          pasado el plazo o es un regalo ya entregado, nuestro equipo revisa la solicitud y te escribe.
        </p>
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const invalid = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorPage title={invalid ? "Este enlace no es válido" : "No hemos podido cargar tus cupones"}>
      <p>
        {invalid
          ? "Este enlace no es válido o está incompleto. Usa el botón «Ver mis cupones» del correo de confirmación tal cual te llegó."
          : "Inténtalo de nuevo en unos minutos."}
      </p>
    </ErrorPage>
  );
}
