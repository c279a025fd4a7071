import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { OFFER_STATUS_LABELS, OFFER_STATUSES, transitionsFrom } from "#rules/offer-status";
import { cheapestOption, formatPrice } from "#rules/prices";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { DataTable } from "#app/portal/data-table";
import { samePage, loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { redirectWithToast } from "#app/state/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "offers.read");
  const { count, results, page } = await loadPage(request, PORTAL_PAGE_SIZE, (q) => partnerApi(request).offers(q));
  return data({ offers: results, count, page }, { headers: { "Cache-Control": "private, no-store" } });
}

const StatusChange = z.object({ offer: z.string().uuid(), status: z.enum(OFFER_STATUSES) });

/** A change of status from the list (submit for review, pause, resume, archive); the API decides. */
export async function action({ request }: ActionFunctionArgs) {
  await requirePartnerTo(request, "offers.read");
  const parsed = StatusChange.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success)
    return redirectWithToast(samePage("/socios/ofertas", request), { type: "error", text: "Acción no válida." }, request);
  try {
    await partnerApi(request).updateOffer(parsed.data.offer, { status: parsed.data.status });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return redirectWithToast(samePage("/socios/ofertas", request), { type: "error", text: error.message }, request);
    throw error;
  }
  return redirectWithToast(
    samePage("/socios/ofertas", request),
    { type: "success", text: `Oferta: ${OFFER_STATUS_LABELS[parsed.data.status]}.` },
    request,
  );
}

export default function MyOffers() {
  const { offers, count, page } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section">
      <div className="row-actions" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h1 style={{ margin: 0 }}>Mis ofertas</h1>
        <Link to="/socios/ofertas/nueva" className="btn">
          Crear oferta
        </Link>
      </div>
      {count === 0 ? <p className="empty-state">Todavía no tienes ofertas. Crea la primera.</p> : null}
      <DataTable
        caption="Mis ofertas"
        rows={offers}
        rowKey={(o) => o.uuid}
        columns={[
          {
            header: "Oferta",
            cell: (o) => (
              <>
                <Link to={`/socios/ofertas/${o.uuid}`}>{o.title}</Link>
                <br />
                <span className="muted small">{o.organization.name}</span>
                {o.review_note ? <p className="field-error">Devuelta: {o.review_note}</p> : null}
                {o.revision?.status === "pending" ? (
                  <p className="revision-pill">
                    <span className="status-pill status-pending_review">Cambios pendientes de revisión</span>
                  </p>
                ) : null}
                {o.revision?.status === "rejected" ? <p className="field-error">Cambios rechazados: {o.revision.review_note}</p> : null}
              </>
            ),
          },
          { header: "Estado", cell: (o) => <span className={`status-pill status-${o.status}`}>{OFFER_STATUS_LABELS[o.status]}</span> },
          {
            header: "Desde",
            className: "nowrap",
            cell: (o) => formatPrice(cheapestOption(o.price_options)?.actual_price ?? "") || "—",
          },
          { header: "Vendidas", cell: (o) => o.price_options.reduce((n, p) => n + p.sold, 0) },
          {
            header: "Acciones",
            cell: (o) => (
              <div className="row-actions">
                {transitionsFrom(o.status, { staff: false }).map((t) => (
                  <Form method="post" key={t.to} className="inline-form">
                    <input type="hidden" name="offer" value={o.uuid} />
                    <input type="hidden" name="status" value={t.to} />
                    <button type="submit" className="btn btn-small btn-secondary" aria-label={`${t.label}: ${o.title}`}>
                      {t.label}
                    </button>
                  </Form>
                ))}
              </div>
            ),
          },
        ]}
      />
      <Pagination page={page} count={count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de ofertas" />
    </section>
  );
}
