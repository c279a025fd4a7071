import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatShortDateTime } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({ title: "Reembolsos pendientes", description: "Ventas cuyo dinero hay que devolver.", noindex: true });

/** Sales paid after their reservation lapsed (refund_required): the money must go back by hand in the provider's panel. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { count, results, page } = await loadPage(request, PORTAL_PAGE_SIZE, (q) => partnerApi(request).refundRequired(q));
  return data({ sales: results, count, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Refunds() {
  const { sales, count, page } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section">
      <h1>Ventas con reembolso pendiente</h1>
      <p className="muted">
        Pagos que llegaron cuando la reserva ya había caducado: no tienen cupones y hay que devolver el dinero desde el panel del proveedor
        de pago.
      </p>
      {count === 0 ? (
        <p className="empty-state">No hay reembolsos pendientes.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table stack-table">
            <caption className="visually-hidden">Ventas con reembolso pendiente</caption>
            <thead>
              <tr>
                <th scope="col">Venta</th>
                <th scope="col">Cliente</th>
                <th scope="col">Importe</th>
                <th scope="col">Pagada</th>
                <th scope="col">Proveedor</th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s) => (
                <tr key={s.sale_id}>
                  <td data-label="Venta">
                    <span className="mono small break">{s.sale_id}</span>
                  </td>
                  <td data-label="Cliente" className="break">
                    {s.email}
                  </td>
                  <td data-label="Importe">{formatPrice(s.total)}</td>
                  <td data-label="Pagada">{s.paid_at ? formatShortDateTime(s.paid_at) : "—"}</td>
                  <td data-label="Proveedor">{s.provider}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} count={count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de reembolsos" />
    </section>
  );
}
