import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { formatShortDateTime } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { DataTable } from "#app/portal/data-table";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { RefundRequests, RequestDecisionSchema } from "./requests";

export const meta: MetaFunction = () =>
  seo({ title: "Reembolsos pendientes", description: "Ventas cuyo dinero hay que devolver.", noindex: true });

/** «Sí, devolver»: the one form of this page. */
const RefundFormSchema = z.object({ intent: z.literal("refund"), sale: z.string().uuid("Venta no válida.") });

const ATTEMPT_LABELS = {
  pending: "Devolución en curso",
  refunded: "Devuelto",
  refused: "El proveedor rechazó la devolución",
  unknown: "Sin respuesta del proveedor: compruébalo en su panel antes de repetirla",
} as const;

/**
 * Sales that owe the buyer their money (paid the wrong amount, or after the reservation lapsed
 * with the tickets gone). Where the provider gives money back from the shop (Redsys, the
 * sandbox) a button does it; otherwise it is done by hand in the provider's panel.
 * ?devolver=<id> asks before giving the money back.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const [{ count, results, page }, requests] = await Promise.all([
    loadPage(request, PORTAL_PAGE_SIZE, (q) => partnerApi(request).refundRequired(q)),
    partnerApi(request).refundRequests({ page_size: 50 }),
  ]);
  const url = new URL(request.url);
  const refunding = results.find((s) => s.can_refund && s.sale_id === url.searchParams.get("devolver")) ?? null;
  url.searchParams.delete("devolver");
  return data(
    {
      sales: results,
      count,
      page,
      refunding,
      back: `/admin/reembolsos${url.search}`,
      requests: requests.results,
      requestCount: requests.count,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  url.searchParams.delete("devolver");
  const back = `/admin/reembolsos${url.search}`;
  const fields = Object.fromEntries(await readForm(request));
  if (fields.intent === "approve" || fields.intent === "refuse") {
    const decision = RequestDecisionSchema.safeParse(fields);
    if (!decision.success) return redirectWithToast(back, { type: "error", text: decision.error.issues[0].message }, request);
    try {
      const d = decision.data;
      const { detail } = await partnerApi(request).decideRefund(
        d.request,
        d.intent === "approve" ? { decision: "approve" } : { decision: "refuse", reason: d.reason },
      );
      return redirectWithToast(back, { type: "success", text: detail }, request);
    } catch (error) {
      if (error instanceof ApiError) return redirectWithToast(back, { type: "error", text: error.message }, request);
      throw error;
    }
  }
  const parsed = RefundFormSchema.safeParse(fields);
  if (!parsed.success) return redirectWithToast(back, { type: "error", text: "Venta no válida." }, request);
  try {
    const { detail } = await partnerApi(request).refund(parsed.data.sale);
    return redirectWithToast(back, { type: "success", text: detail }, request);
  } catch (error) {
    // Refused, already refunded, or the provider's answer never came: the API says which, in Spanish.
    if (error instanceof ApiError) return redirectWithToast(back, { type: "error", text: error.message }, request);
    throw error;
  }
}

export default function Refunds() {
  const { sales, count, page, refunding, back, requests, requestCount } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const askTo = (id: string) => `?${new URLSearchParams({ ...(page > 1 ? { page: String(page) } : {}), devolver: id })}`;
  return (
    <section className="portal-section">
      <h1>Ventas con reembolso pendiente</h1>
      <p className="muted">
        Pagos que no pueden dar cupones (llegaron cuando la reserva ya había caducado, o por otro importe): hay que devolver el dinero. Con
        Redsys se devuelve desde aquí; con otros proveedores, desde su panel.
      </p>
      {refunding ? (
        <section className="confirm-box" aria-labelledby="confirm-title" aria-describedby="confirm-detail">
          <h2 id="confirm-title" style={{ margin: 0 }}>
            ¿Devolver a {refunding.email} lo que pagó?
          </h2>
          <p id="confirm-detail">
            Se devuelve todo lo cobrado con {refunding.provider} (el pedido era de {formatPrice(refunding.total)}; si cobró otro importe, se
            devuelve ese), a la misma tarjeta o cuenta con la que pagó. No se puede deshacer.
          </p>
          <div className="row-actions">
            <Form method="post" className="inline-form">
              <input type="hidden" name="intent" value="refund" />
              <input type="hidden" name="sale" value={refunding.sale_id} />
              <button type="submit" className="btn" disabled={busy}>
                {busy ? "Devolviendo…" : "Sí, devolver el dinero"}
              </button>
            </Form>
            <Link to={back} className="btn btn-secondary">
              Cancelar
            </Link>
          </div>
        </section>
      ) : null}
      {count === 0 ? (
        <p className="empty-state">No hay reembolsos pendientes.</p>
      ) : (
        <DataTable
          caption="Ventas con reembolso pendiente"
          rows={sales}
          rowKey={(s) => s.sale_id}
          columns={[
            { header: "Venta", cell: (s) => <span className="mono small break">{s.sale_id}</span> },
            { header: "Cliente", className: "break", cell: (s) => s.email },
            { header: "Importe", cell: (s) => formatPrice(s.total) },
            { header: "Pagada", cell: (s) => (s.paid_at ? formatShortDateTime(s.paid_at) : "—") },
            { header: "Proveedor", cell: (s) => s.provider },
            {
              header: "Devolución",
              cell: (s) => (
                <>
                  {s.last_attempt ? (
                    <p className="small" style={{ margin: "0 0 0.25rem" }}>
                      {ATTEMPT_LABELS[s.last_attempt.status]}
                      {s.last_attempt.detail ? `: ${s.last_attempt.detail}` : ""} ({formatShortDateTime(s.last_attempt.at)})
                    </p>
                  ) : null}
                  {s.can_refund ? (
                    <Link to={askTo(s.sale_id)} className="btn" aria-label={`Devolver el dinero a ${s.email}`}>
                      Devolver el dinero
                    </Link>
                  ) : (
                    <span className="muted small">Desde el panel del proveedor</span>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      <Pagination page={page} count={count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de reembolsos" />
      <RefundRequests requests={requests} count={requestCount} busy={busy} />
    </section>
  );
}
