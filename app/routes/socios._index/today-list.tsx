import { Form } from "@remix-run/react";
import type { FoundCoupon, TodayRedemptions } from "#contract/till";
import { formatDate } from "#rules/dates";
import { plural } from "#rules/plurals";
import { DataTable } from "#app/portal/data-table";

/** «Hoy: N canjeados»: what this partner's tills redeemed today, newest first. */
export function TodayList({ today }: { today: TodayRedemptions }) {
  return (
    <section className="till-today" aria-labelledby="till-today-title">
      <h2 id="till-today-title">
        Hoy: {today.count} {plural(today.count, "canjeado", "canjeados")}
      </h2>
      {today.count === 0 ? (
        <p className="empty-state">Todavía no se ha canjeado ningún cupón hoy.</p>
      ) : (
        <DataTable
          caption="Cupones canjeados hoy"
          rows={today.results}
          rowKey={(r) => r.uuid}
          columns={[
            { header: "Hora", className: "nowrap", cell: (r) => formatDate(r.redeemed_at, "HH:mm") },
            { header: "Cupón", className: "nowrap", cell: (r) => <span className="mono">…{r.code_last4}</span> },
            {
              header: "Oferta",
              cell: (r) => (
                <div>
                  {r.offer_title}
                  <br />
                  <span className="muted small">{r.option_title}</span>
                </div>
              ),
            },
            { header: "Canjeado por", className: "break-all", cell: (r) => r.member_email ?? "—" },
          ]}
        />
      )}
    </section>
  );
}

type Search = { text: string; results: FoundCoupon[]; problem: string | null } | null;

/** The code is lost: find the buyer's coupons still to redeem, by name or email; a plain GET. */
export function BuyerSearch({ search }: { search: Search }) {
  return (
    <section className="till-search" aria-labelledby="till-search-title">
      <h2 id="till-search-title">¿No tiene el código?</h2>
      <Form method="get" action="/socios" className="till-search-form">
        <div className="field">
          <label htmlFor="till-search-text">Nombre o email del cliente</label>
          <input
            id="till-search-text"
            name="cliente"
            type="search"
            autoComplete="off"
            defaultValue={search?.text ?? ""}
            aria-invalid={search?.problem ? true : undefined}
            aria-describedby={search?.problem ? "till-search-error" : undefined}
          />
          {search?.problem ? (
            <p id="till-search-error" className="field-error">
              {search.problem}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn btn-secondary btn-block">
          Buscar sus cupones
        </button>
      </Form>
      {search && !search.problem ? (
        search.results.length === 0 ? (
          <p className="empty-state" role="status">
            Ningún cupón por canjear de tus ofertas para «{search.text}».
          </p>
        ) : (
          <ul className="till-found" aria-label="Cupones por canjear encontrados">
            {search.results.map((c) => (
              <li key={c.uuid}>
                <p>
                  {c.offer_title} <span className="muted small">· {c.option_title}</span>
                  {c.buyer_first_name ? <span className="muted small"> · {c.buyer_first_name}</span> : null}
                </p>
                <Form method="get" action="/socios">
                  <input type="hidden" name="code" value={c.code} />
                  <button type="submit" className="btn btn-secondary">
                    Comprobar <span className="mono">{c.code}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}
