import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { formatShortDateTime } from "#rules/dates";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PAGE_SIZE_DEFAULT } from "#rules/constants";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({ title: "Solicitudes de socios", description: "Negocios que quieren publicar.", noindex: true });

/** The businesses that sent «Publica tu oferta» (/empresas), newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { count, results, page } = await loadPage(request, PAGE_SIZE_DEFAULT, (q) => partnerApi(request).leads(q));
  return data({ leads: results, count, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Leads() {
  const { leads, count, page } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section">
      <h1>Solicitudes de socios</h1>
      <p className="muted">
        Negocios que han enviado «Publica tu oferta». Para darles acceso, crea su organización y añade su cuenta como miembro.
      </p>
      {count === 0 ? (
        <p className="empty-state">Todavía no ha llegado ninguna solicitud.</p>
      ) : (
        <ul className="lead-list">
          {leads.map((l) => (
            <li key={l.uuid} className="buy-box">
              <h2 style={{ margin: 0 }}>{l.business_name}</h2>
              <p className="muted small" style={{ margin: 0 }}>
                {formatShortDateTime(l.created_at)} · {l.province} · {isCategoryId(l.category) ? CATEGORY_LABELS[l.category] : l.category}
              </p>
              <dl className="coupon-details">
                <dt>Contacto</dt>
                <dd>{l.contact_name}</dd>
                <dt>Correo</dt>
                <dd className="break">
                  <a href={`mailto:${l.email}`}>{l.email}</a>
                </dd>
                <dt>Teléfono</dt>
                <dd>
                  {/* No-break spaces: a number never wraps mid-way. */}
                  <a href={`tel:${l.phone.replace(/[^\d+]/g, "")}`}>{l.phone.replace(/ /g, "\u00a0")}</a>
                </dd>
              </dl>
              {l.message ? <p style={{ margin: 0, whiteSpace: "pre-line" }}>{l.message}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} count={count} pageSize={PAGE_SIZE_DEFAULT} label="Páginas de solicitudes" />
    </section>
  );
}
