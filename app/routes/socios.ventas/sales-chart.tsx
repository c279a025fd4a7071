import type { SalesDay } from "#contract/partner-responses";
import { formatDate } from "#rules/dates";
import { formatCount } from "#rules/prices";

/** The longest period drawn a bar per day; a longer one is cut to its last CHART_MAX_DAYS days. */
export const CHART_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * Every day of the chosen period, with zeros on days without sales or redemptions. With no dates
 * chosen, the period runs from the first day with a fact (at least the last 30 days) to today.
 */
export function chartDays(days: SalesDay[], period: { from?: string | null; to?: string | null; today: string }): SalesDay[] {
  const to = period.to ?? (days.length && days[days.length - 1].day > period.today ? days[days.length - 1].day : period.today);
  const earliest = isoDay(dayMs(to) - 29 * DAY_MS);
  let from = period.from ?? (days.length && days[0].day < earliest ? days[0].day : earliest);
  if ((dayMs(to) - dayMs(from)) / DAY_MS >= CHART_MAX_DAYS) from = isoDay(dayMs(to) - (CHART_MAX_DAYS - 1) * DAY_MS);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: SalesDay[] = [];
  for (let t = dayMs(from); t <= dayMs(to); t += DAY_MS) {
    const day = isoDay(t);
    out.push(byDay.get(day) ?? { day, sold: 0, redeemed: 0 });
  }
  return out;
}

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 4, bottom: 0 };

/**
 * «Ventas» per day: coupons sold and redeemed as paired bars, drawn by the server as SVG (it shows
 * without JavaScript). Its words say the same for a screen reader; the table below lists the rows.
 */
export function SalesChart({ days }: { days: SalesDay[] }) {
  if (!days.length) return null;
  const sold = days.reduce((n, d) => n + d.sold, 0);
  const redeemed = days.reduce((n, d) => n + d.redeemed, 0);
  const max = Math.max(1, ...days.map((d) => Math.max(d.sold, d.redeemed)));
  const plotW = WIDTH;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / days.length;
  const bar = Math.max(0.5, (slot * 0.8) / 2);
  const y = (n: number) => PAD.top + plotH - (n / max) * plotH;
  const first = formatDate(days[0].day, "dd/MM/yyyy");
  const last = formatDate(days[days.length - 1].day, "dd/MM/yyyy");
  const label = `Del ${first} al ${last}: ${formatCount(sold)} cupones vendidos y ${formatCount(redeemed)} canjeados. Máximo en un día: ${formatCount(max)}.`;
  return (
    <figure className="sales-chart">
      <figcaption className="sales-chart-caption">
        <span className="sales-chart-key sales-chart-key-sold">Vendidos</span>
        <span className="sales-chart-key sales-chart-key-redeemed">Canjeados</span>
        <span className="muted small">por día · máximo {formatCount(max)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} preserveAspectRatio="none" className="sales-chart-svg">
        <line x1={0} x2={WIDTH} y1={y(max)} y2={y(max)} className="sales-chart-grid" vectorEffect="non-scaling-stroke" />
        {days.map((d, i) => {
          const x = i * slot + slot * 0.1;
          return (
            <g key={d.day}>
              {d.sold ? <rect x={x} y={y(d.sold)} width={bar} height={y(0) - y(d.sold)} className="sales-chart-sold" /> : null}
              {d.redeemed ? (
                <rect x={x + bar} y={y(d.redeemed)} width={bar} height={y(0) - y(d.redeemed)} className="sales-chart-redeemed" />
              ) : null}
            </g>
          );
        })}
        <line x1={0} x2={WIDTH} y1={y(0)} y2={y(0)} className="sales-chart-axis" vectorEffect="non-scaling-stroke" />
      </svg>
      {/* Outside the drawing, so the words keep their size when it stretches to the page's width. */}
      <div className="sales-chart-dates muted small" aria-hidden="true">
        <span>{first}</span>
        <span>{last}</span>
      </div>
    </figure>
  );
}
