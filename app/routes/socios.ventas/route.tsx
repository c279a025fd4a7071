import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { COUPON_STATE_LABELS } from "#rules/coupons";
import { formatDate, formatShortDateTime } from "#rules/dates";
import { formatCount, formatPrice } from "#rules/prices";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { SalesFilterSchema } from "#contract/partner";
import { SelectField, TextField } from "#app/components/form-field";
import { OfferChoiceSearch } from "#app/portal/offer-search";
import { keepChosen, offerChoices } from "#app/portal/offer-choices.server";
import { partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { DataTable } from "#app/portal/data-table";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { seo } from "#app/document/seo";
import { chartDays, SalesChart } from "./sales-chart";

export const meta: MetaFunction = () => seo({ title: "Ventas", description: "Ventas y cupones de tus ofertas.", noindex: true });

/**
 * The partner's sales: one row per coupon. The filter is a GET form (shareable, works without
 * JavaScript); a filter the schema refuses shows its message and lists everything meanwhile.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "sales.read");
  const client = partnerApi(request);
  const url = new URL(request.url);
  const submission = parseWithZod(url.searchParams, { schema: SalesFilterSchema });
  const filter = submission.status === "success" ? submission.value : {};
  const query = { date_from: filter.date_from ?? undefined, date_to: filter.date_to ?? undefined, offer: filter.offer ?? undefined };
  const [{ page, ...sales }, choices, perDay] = await Promise.all([
    loadPage(request, PORTAL_PAGE_SIZE, (q) => client.sales({ ...query, ...q })),
    offerChoices(request),
    client.salesPerDay(query),
  ]);
  const days = chartDays(perDay.results, { from: query.date_from, to: query.date_to, today: formatDate(new Date(), "yyyy-MM-dd") });
  await keepChosen(choices, query.offer, async (id) => sales.results[0]?.offer.title ?? (await client.offer(id).catch(() => null))?.title);
  const csv = `/socios/ventas.csv?${new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v ? [[k, v]] : [])))}`;
  return data(
    {
      sales,
      days,
      page,
      ...choices,
      filter: query,
      csv,
      filtered: Object.values(query).some(Boolean),
      result: submission.status === "success" || url.search === "" ? undefined : submission.reply(),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function Sales() {
  const { sales, days, page, offers, offerCount, offersListed, offerSearch, filter, csv, filtered, result } =
    useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    // The filter in force shows in the form (the page is its GET), so the next change starts from
    // it; a new filter is a new form, as a page load would make it without JavaScript.
    id: `sales-filter-${Object.values(filter).join("-")}`,
    lastResult: result,
    defaultValue: filter,
    constraint: getZodConstraint(SalesFilterSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SalesFilterSchema }),
  });
  const { totals, results } = sales;
  return (
    <section className="portal-section">
      <div className="portal-head">
        <h1>Ventas</h1>
        <a href={csv} className="btn btn-secondary" download>
          Descargar CSV
        </a>
      </div>
      <OfferChoiceSearch
        shown={offersListed}
        count={offerCount}
        search={offerSearch}
        keep={{ date_from: filter.date_from, date_to: filter.date_to }}
      />
      <Form method="get" className="filters" {...getFormProps(form)}>
        {offerSearch ? <input type="hidden" name="oferta" value={offerSearch} /> : null}
        <TextField field={fields.date_from} label="Desde" type="date" />
        <TextField field={fields.date_to} label="Hasta" type="date" />
        <SelectField field={fields.offer} label="Oferta" options={offers} placeholder="Todas las ofertas" />
        <div className="row-actions">
          <button type="submit" className="btn">
            Filtrar
          </button>
          {filtered ? (
            <Link to="/socios/ventas" className="btn btn-secondary">
              Quitar filtros
            </Link>
          ) : null}
        </div>
      </Form>
      <dl className="stat-row" aria-label="Totales">
        <div>
          <dt>Cupones vendidos</dt>
          <dd>{formatCount(totals.coupons)}</dd>
        </div>
        <div>
          <dt>Reembolsados</dt>
          <dd>{formatCount(totals.refunded)}</dd>
        </div>
        <div>
          <dt>Canjeados</dt>
          <dd>{formatCount(totals.redeemed)}</dd>
        </div>
        <div>
          <dt>Ingresos</dt>
          <dd>{formatPrice(totals.revenue)}</dd>
        </div>
      </dl>
      {totals.coupons + totals.refunded > 0 ? <SalesChart days={days} /> : null}
      {results.length === 0 ? (
        <p className="empty-state">{filtered ? "No hay ventas con estos filtros." : "Todavía no has vendido ningún cupón."}</p>
      ) : (
        <DataTable
          caption="Cupones vendidos"
          rows={results}
          rowKey={(r) => r.uuid}
          columns={[
            { header: "Fecha", className: "nowrap", cell: (r) => (r.paid_at ? formatShortDateTime(r.paid_at) : "—") },
            {
              header: "Oferta",
              cell: (r) => (
                <div>
                  {r.offer.title}
                  <br />
                  <span className="muted small">{r.option.title}</span>
                </div>
              ),
            },
            { header: "Cliente", cell: (r) => r.buyer_first_name ?? r.buyer_email_hint },
            {
              header: "Precio",
              className: "nowrap",
              cell: (r) => (
                <div>
                  {formatPrice(r.paid_price)}
                  {r.promo_code ? <span className="muted small"> ({r.promo_code})</span> : null}
                </div>
              ),
            },
            { header: "Cupón", className: "nowrap", cell: (r) => <span className="mono">{r.code}</span> },
            {
              header: "Estado",
              cell: (r) => (
                <div>
                  <span className={`status-pill sale-coupon-${r.state}`}>{COUPON_STATE_LABELS[r.state]}</span>
                  {r.redeemed_at ? <span className="muted small nowrap"> {formatShortDateTime(r.redeemed_at)}</span> : null}
                </div>
              ),
            },
          ]}
        />
      )}
      <Pagination page={page} count={sales.count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de ventas" />
    </section>
  );
}
