/**
 * A statement as the owner and staff read it: its totals, who pays whom, its files and its lines,
 * each line with its coupon and sale so any amount can be traced back.
 */
import { Link } from "@remix-run/react";
import type { PartnerTerms, StatementLineView, StatementSummary, StatementView } from "#contract/statements";
import { formatDate } from "#rules/dates";
import { formatCount, formatPrice } from "#rules/prices";
import { DataTable } from "./data-table";

const PILL: Record<StatementSummary["payout"]["state"], string> = {
  paid: "status-active",
  pending: "status-pending_review",
  carried: "status-paused",
  to_offset: "status-paused",
  nothing: "status-paused",
};

export function PayoutPill({ payout }: { payout: StatementSummary["payout"] }) {
  return <span className={`status-pill ${PILL[payout.state]}`}>{payout.label}</span>;
}

const period = (s: Pick<StatementSummary, "period_start" | "period_end">) =>
  `${formatDate(s.period_start, "d MMM yyyy")} – ${formatDate(new Date(new Date(s.period_end).getTime() - 1), "d MMM yyyy")}`;

/** The list: number, period, what is paid, and whether it was. */
export function StatementTable({
  statements,
  linkTo,
  showOrganization,
}: {
  statements: StatementSummary[];
  linkTo: (s: StatementSummary) => string;
  showOrganization?: boolean;
}) {
  return (
    <DataTable
      caption="Liquidaciones"
      rows={statements}
      rowKey={(s) => s.uuid}
      columns={[
        { header: "Liquidación", className: "nowrap", cell: (s) => <Link to={linkTo(s)}>{s.number}</Link> },
        ...(showOrganization ? [{ header: "Empresa", cell: (s: StatementSummary) => s.organization.name }] : []),
        { header: "Periodo", cell: period },
        {
          header: "Cupones",
          cell: (s) => (
            <>
              {formatCount(s.counts.sold)} vendidos · {formatCount(s.counts.redeemed)} canjeados
            </>
          ),
        },
        { header: "A pagar", className: "nowrap", cell: (s) => formatPrice(s.payable) },
        {
          header: "Estado",
          cell: (s) => (
            <>
              <PayoutPill payout={s.payout} />
              {s.payout.paid_on ? <span className="muted small nowrap"> {formatDate(s.payout.paid_on, "d MMM yyyy")}</span> : null}
            </>
          ),
        },
      ]}
    />
  );
}

/** The owner's terms: commission, when a coupon is paid, the account it is paid to. */
export function TermsSummary({ terms }: { terms: PartnerTerms }) {
  const c = terms.commission;
  return (
    <dl className="terms-list">
      <div>
        <dt>Comisión</dt>
        <dd>
          {c.current.label}
          {c.current.standard ? " (la estándar)" : c.current.valid_from ? ` desde el ${formatDate(c.current.valid_from)}` : ""}
          {c.upcoming.map((r) => (
            <span key={r.uuid ?? r.valid_from} className="muted small">
              <br />A partir del {formatDate(r.valid_from ?? "")}: {r.label}
            </span>
          ))}
        </dd>
      </div>
      <div>
        <dt>Se paga un cupón</dt>
        <dd>
          {terms.payable_on_label}
          <br />
          <span className="muted small">{terms.payable_on_terms}</span>
        </dd>
      </div>
      <div>
        <dt>Cuenta de cobro</dt>
        <dd className="mono">{terms.payout_account?.iban_masked ?? "Sin IBAN todavía"}</dd>
      </div>
      <div>
        <dt>Pendiente de pago</dt>
        <dd>{formatPrice(terms.pending_payout)}</dd>
      </div>
    </dl>
  );
}

/** The head of a statement: totals, parties, invoice and payout. */
export function StatementHead({ statement: s, files }: { statement: StatementView; files: { csv: string; pdf: string } }) {
  return (
    <>
      <div className="portal-head">
        <h1>Liquidación {s.number}</h1>
        <div className="row-actions">
          <a href={files.csv} className="btn btn-secondary" download>
            Descargar CSV
          </a>
          <a href={files.pdf} className="btn btn-secondary" download>
            Descargar PDF
          </a>
        </div>
      </div>
      <p>
        {s.organization.name} · {period(s)} · emitida el {formatDate(s.issued_at)} · <PayoutPill payout={s.payout} />
        {s.payout.transfer_reference ? (
          <span className="muted small">
            {" "}
            (transferencia {s.payout.transfer_reference}
            {s.payout.paid_on ? ` del ${formatDate(s.payout.paid_on)}` : ""})
          </span>
        ) : null}
      </p>
      <p className="muted small">
        {s.payable_on_label}: {s.payable_on_terms}
      </p>
      <dl className="stat-row" aria-label="Totales">
        <div>
          <dt>Vendidos</dt>
          <dd>{formatCount(s.counts.sold)}</dd>
        </div>
        <div>
          <dt>Reembolsados</dt>
          <dd>{formatCount(s.counts.refunded)}</dd>
        </div>
        <div>
          <dt>Canjeados</dt>
          <dd>{formatCount(s.counts.redeemed)}</dd>
        </div>
        <div>
          <dt>Caducados sin canjear</dt>
          <dd>{formatCount(s.counts.expired)}</dd>
        </div>
      </dl>
      <dl className="terms-list" aria-label="Importes">
        <div>
          <dt>Importe bruto</dt>
          <dd>{formatPrice(s.gross)}</dd>
        </div>
        <div>
          <dt>Comisión</dt>
          <dd>{formatPrice(s.commission)}</dd>
        </div>
        <div>
          <dt>IVA de la comisión (21 %)</dt>
          <dd>{formatPrice(s.vat)}</dd>
        </div>
        <div>
          <dt>Neto</dt>
          <dd>{formatPrice(s.net)}</dd>
        </div>
        {s.carried !== "0.00" ? (
          <div>
            <dt>Saldo anterior compensado</dt>
            <dd>{formatPrice(s.carried)}</dd>
          </div>
        ) : null}
        <div>
          <dt>A pagar</dt>
          <dd>
            <strong>{formatPrice(s.payable)}</strong>
          </dd>
        </div>
        {s.invoice ? (
          <div>
            <dt>Factura de comisión</dt>
            <dd>{s.invoice.number}</dd>
          </div>
        ) : null}
        <div>
          <dt>Cuenta de cobro</dt>
          <dd className="mono">{s.partner.iban_masked ?? "Sin IBAN"}</dd>
        </div>
      </dl>
    </>
  );
}

/** The lines: one per coupon whose facts moved, with its sale. */
export function StatementLines({ lines }: { lines: StatementLineView[] }) {
  if (lines.length === 0) return <p className="empty-state">Esta liquidación no tiene líneas.</p>;
  return (
    <DataTable
      caption="Líneas de la liquidación"
      rows={lines}
      rowKey={(l) => l.line_no}
      columns={[
        { header: "Nº", cell: (l) => l.line_no },
        {
          header: "Cupón y venta",
          cell: (l) => (
            <>
              <span className="mono">{l.coupon.code}</span>
              <br />
              <span className="muted small">
                Venta <span className="mono">{l.sale_id.slice(0, 8)}</span> del {formatDate(l.sold_at, "d MMM yyyy")}
              </span>
            </>
          ),
        },
        {
          header: "Oferta",
          cell: (l) => (
            <>
              {l.offer_title}
              <br />
              <span className="muted small">{l.option_title}</span>
            </>
          ),
        },
        { header: "Hechos", cell: (l) => l.facts_label },
        { header: "Bruto", className: "nowrap", cell: (l) => formatPrice(l.gross) },
        {
          header: "Comisión",
          className: "nowrap",
          cell: (l) => (
            <>
              {formatPrice(l.commission)}
              {l.rate ? <span className="muted small"> ({l.rate})</span> : null}
            </>
          ),
        },
        { header: "IVA", className: "nowrap", cell: (l) => formatPrice(l.vat) },
        { header: "Neto", className: "nowrap", cell: (l) => formatPrice(l.net) },
      ]}
    />
  );
}
