import { sql, type SQL } from "drizzle-orm";
import type { CouponView, SaleRow, SalesDay } from "#contract/partner-responses";
import { normalizeCouponCode, redeemedWhenAndBy, COUPON_STATE_LABELS, type CouponState } from "#rules/coupons";
import { formatDateTime, madridDate } from "#rules/dates";
import { formatCents, fromCents, toCents } from "#rules/prices";
import { buyerFirstName, maskEmail } from "#rules/buyer";
import { query, type Executor } from "#api/db/client";
import { IS_PAID, IS_REDEEMED, IS_REFUNDED, IS_SOLD, PAID_COUPON_FACTS, paidCouponsFrom } from "#api/services/coupon-facts";
import { feedbackAfterRedemptionStatement, feedbackAfterUndo } from "#api/services/feedback";
import { HttpError, notFound } from "#api/http";
import { forbidden, inScope, type Scope } from "#api/services/access";
import { canUndoRedemption, UNDO_MINUTES } from "#rules/partner-roles";

type Row = {
  id: string;
  code: string;
  redeemed_at: Date | string | null;
  refunded: boolean;
  sale_id: string;
  sale_status: string;
  paid_at: Date | string | null;
  checkout_data: { user_fullname?: string } | null;
  account_first_name: string | null;
  email: string;
  offer_id: string;
  offer_title: string;
  valid_until: string | null;
  option_id: string;
  option_title: string;
  organization_id: string;
  organization_name: string;
  paid_unit_cents: number;
  promo_code: string | null;
  redeemed_by_name: string | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function stateOf(row: Row, today = madridDate(new Date())): CouponState {
  if (row.redeemed_at) return "redeemed";
  if (row.refunded) return "refunded";
  if (row.valid_until && String(row.valid_until).slice(0, 10) < today) return "expired";
  return "valid";
}

function toView(row: Row): CouponView {
  const state = stateOf(row);
  return {
    uuid: row.id,
    code: row.code,
    state,
    state_label: COUPON_STATE_LABELS[state],
    redeemed_at: iso(row.redeemed_at),
    redeemed_by: row.redeemed_at ? row.redeemed_by_name : null,
    offer: { uuid: row.offer_id, title: row.offer_title, valid_until: row.valid_until ? String(row.valid_until).slice(0, 10) : null },
    option: { uuid: row.option_id, title: row.option_title },
    // Only the first name: enough to greet the buyer at the till, no more of their data.
    buyer_first_name: buyerFirstName(row.checkout_data?.user_fullname, row.account_first_name),
    organization: { uuid: row.organization_id, name: row.organization_name },
    sale_id: row.sale_id,
    paid_at: iso(row.paid_at),
  };
}

/** Who redeemed a coupon (`m`, the member's user), as the till names them: first name, else email. */
const MEMBER_NAME = sql`coalesce(nullif(btrim(m.first_name), ''), m.email)`;

/**
 * Coupons with their sale, offer, option and organisation. `ids`, when given, are looked up one
 * by one by key: as a plain join, PostgreSQL hashed the whole coupons table for 1,000 of them.
 * OFFSET 0 keeps the lookup a subquery of its own, which the planner does not merge into the join.
 */
function couponRows(db: Executor, where: SQL, extra: SQL = sql``, ids?: string[]) {
  const from = ids
    ? sql`unnest(${sql.param(ids)}::uuid[]) AS wanted(id) CROSS JOIN LATERAL (SELECT * FROM coupons WHERE coupons.id = wanted.id OFFSET 0) c`
    : sql`coupons c`;
  return query<Row>(
    db,
    sql`
    SELECT c.id, c.code, c.redeemed_at, ${IS_REFUNDED} AS refunded, s.id AS sale_id, s.status AS sale_status, s.paid_at,
           s.checkout_data, s.email, u.first_name AS account_first_name,
           o.id AS offer_id, o.title AS offer_title, o.valid_until::text AS valid_until,
           p.id AS option_id, p.title AS option_title, org.id AS organization_id, org.name AS organization_name,
           si.paid_unit_cents, si.promo_code, ${MEMBER_NAME} AS redeemed_by_name
    FROM ${paidCouponsFrom(from)}
    JOIN price_options p ON p.id = si.price_option_id
    JOIN organizations org ON org.id = o.organization_id
    LEFT JOIN users u ON u.id = s.user_id
    LEFT JOIN users m ON m.id = c.redeemed_by
    WHERE ${where} ${extra}`,
  );
}

/** POST /verification/coupon/: what the till needs to know about a code, printed with or without dashes. */
export async function verifyCoupon(db: Executor, scope: Scope, input: string): Promise<CouponView> {
  const code = normalizeCouponCode(input);
  if (!code) throw new HttpError(400, "Ese no es un código de cupón: son 12 letras y números, como ABCD-EFGH-JKLM.");
  const [row] = await couponRows(db, sql`c.code = ${code} AND ${inScope(scope, sql`o.organization_id`)}`);
  // Another organisation's coupon reads as unknown: a partner learns nothing about others' sales.
  if (!row) throw notFound("No existe ningún cupón de tus ofertas con ese código.");
  return toView(row);
}

/**
 * POST /sales/redeem/{id}/: marks the coupon used, once. Two waiters pressing «Canjear» at the
 * same moment both run the conditional update; the database lets exactly one of them change the
 * row, and the other is told when it was redeemed. A coupon whose buyer asked for its money back
 * is held and not redeemed. The feedback email is written by the same statement, so it exists
 * exactly when the redemption does.
 *
 * The coupon is read first, apart: the update decides alone who wins. On the embedded database a
 * transaction around the read and the writes cost twice the redemption, and a busy venue's tills
 * queue behind it.
 */
export async function redeemCoupon(db: Executor, scope: Scope, id: string): Promise<CouponView> {
  const [row] = await couponRows(db, sql`c.id = ${id} AND ${inScope(scope, sql`o.organization_id`)}`);
  if (!row) throw notFound("Cupón no encontrado.");
  const before = toView(row);
  if (before.state === "refunded") throw new HttpError(409, "Este cupón no es válido: la compra se ha reembolsado.", { coupon: before });
  if (before.state === "expired") throw new HttpError(409, `Este cupón caducó el ${before.offer.valid_until}.`, { coupon: before });
  // The redemption and its feedback mail in one statement: both or neither, with no transaction to hold.
  const won = await query<{ redeemed_at: Date | string; redeemed_by_name: string | null }>(
    db,
    sql`WITH won AS (
          UPDATE coupons SET redeemed_at = now(), redeemed_by = ${scope.actor.id}
          WHERE id = ${id} AND redeemed_at IS NULL AND refunded_at IS NULL AND refund_requested_at IS NULL
          RETURNING redeemed_at
        ), asked AS (${feedbackAfterRedemptionStatement({ email: row.email, offerId: row.offer_id }, sql`EXISTS (SELECT 1 FROM won)`)})
        SELECT won.redeemed_at, (SELECT ${MEMBER_NAME} FROM users m WHERE m.id = ${scope.actor.id}) AS redeemed_by_name FROM won`,
  );
  if (won.length === 0) {
    const [now] = await couponRows(db, sql`c.id = ${id}`);
    const coupon = toView(now);
    if (coupon.state === "refunded") throw new HttpError(409, "Este cupón no es válido: la compra se ha reembolsado.", { coupon });
    // Held by the buyer's refund request (api/services/sales/coupon-refunds.ts).
    if (!coupon.redeemed_at)
      throw new HttpError(409, "El comprador ha pedido la devolución de este cupón: no se puede canjear.", { coupon });
    throw new HttpError(409, `Este cupón ya se canjeó ${redeemedWhenAndBy(coupon)}.`, { redeemed_at: coupon.redeemed_at, coupon });
  }
  return toView({ ...row, ...won[0] });
}

/**
 * POST /sales/redeem/{id}/undo/: the member who redeemed a coupon may take it back for
 * UNDO_MINUTES (a wrong code pressed in a queue); after that only staff. The coupon is locked,
 * so an undo and a second redemption never cross; the undo is recorded with who and when, and
 * the rating mail the redemption brought forward waits again.
 */
export async function undoRedemption(db: Executor, scope: Scope, id: string): Promise<CouponView> {
  return db.transaction(async (tx) => {
    const [row] = await couponRows(tx, sql`c.id = ${id} AND ${inScope(scope, sql`o.organization_id`)}`, sql`FOR UPDATE OF c`);
    if (!row) throw notFound("Cupón no encontrado.");
    const [by] = await query<{ redeemed_by: string | null }>(tx, sql`SELECT redeemed_by FROM coupons WHERE id = ${id}`);
    if (!row.redeemed_at) throw new HttpError(409, "Este cupón no está canjeado: no hay nada que deshacer.", { coupon: toView(row) });
    const redemption = { redeemedBy: by.redeemed_by ?? "", redeemedAt: new Date(row.redeemed_at) };
    if (!canUndoRedemption(redemption, { userId: scope.actor.id, staff: scope.staff }, new Date())) {
      if (redemption.redeemedBy !== scope.actor.id) throw forbidden();
      throw new HttpError(403, `Han pasado más de ${UNDO_MINUTES} minutos: pide al equipo de ofertas que lo deshaga.`);
    }
    await query(
      tx,
      sql`INSERT INTO redemption_undos (coupon_id, redeemed_at, redeemed_by, undone_by)
          VALUES (${id}, ${row.redeemed_at}, ${by.redeemed_by}, ${scope.actor.id})`,
    );
    await query(tx, sql`UPDATE coupons SET redeemed_at = NULL, redeemed_by = NULL WHERE id = ${id}`);
    if (row.paid_at) await feedbackAfterUndo(tx, { email: row.email, offerId: row.offer_id, paidAt: row.paid_at });
    return toView({ ...row, redeemed_at: null, redeemed_by_name: null });
  });
}

type SalesFilter = { date_from?: string | null; date_to?: string | null; offer?: string | null; organization?: string | null };

/** The instant a day starts in Madrid, where the shop's days (and its statements' months) are. */
const madridStart = (day: SQL) => sql`((${day})::timestamp AT TIME ZONE 'Europe/Madrid')`;

/** The filter on the coupon's own facts (PAID_COUPON_FACTS), so it reads as one index range. */
function salesWhere(scope: Scope, filter: SalesFilter): SQL {
  const parts: SQL[] = [IS_PAID, inScope(scope, sql`c.organization_id`)];
  if (filter.date_from) parts.push(sql`c.paid_at >= ${madridStart(sql`${filter.date_from}::date`)}`);
  if (filter.date_to) parts.push(sql`c.paid_at < ${madridStart(sql`${filter.date_to}::date + 1`)}`);
  if (filter.offer) parts.push(sql`c.offer_id = ${filter.offer}`);
  if (filter.organization) parts.push(sql`c.organization_id = ${filter.organization}`);
  return sql.join(parts, sql` AND `);
}

const toSaleRow = (r: Row): SaleRow => ({
  ...toView(r),
  buyer_email_hint: maskEmail(r.email),
  paid_price: fromCents(r.paid_unit_cents),
  promo_code: r.promo_code,
});

/**
 * A page of the partner's coupons, newest sale first (refunded ones too, marked so), and the
 * totals of every coupon the filter matches, counted by the database: sold (not refunded, what
 * «Mis ofertas» and the public page count), refunded, redeemed, and the revenue of the sold.
 */
export async function partnerSales(db: Executor, scope: Scope, filter: SalesFilter, page: { page: number; pageSize: number }) {
  const where = salesWhere(scope, filter);
  const [[totals], rows] = await Promise.all([
    query<{ listed: number; coupons: number; refunded: number; redeemed: number; revenue: number | string }>(
      db,
      sql`
      SELECT count(*)::int AS listed, (count(*) FILTER (WHERE ${IS_SOLD}))::int AS coupons,
             (count(*) FILTER (WHERE ${IS_REFUNDED}))::int AS refunded, (count(*) FILTER (WHERE ${IS_REDEEMED}))::int AS redeemed,
             coalesce(sum(c.paid_unit_cents) FILTER (WHERE ${IS_SOLD}), 0)::bigint AS revenue
      FROM ${PAID_COUPON_FACTS}
      WHERE ${where}`,
    ),
    pageOfSales(db, where, page),
  ]);
  return {
    count: Number(totals.listed),
    results: rows.map(toSaleRow),
    totals: {
      coupons: Number(totals.coupons),
      refunded: Number(totals.refunded),
      redeemed: Number(totals.redeemed),
      revenue: fromCents(Number(totals.revenue)),
    },
  };
}

/**
 * The page's coupons: their ids picked from the coupons and sales alone, then only those 20 read
 * whole, rather than the option, organisation and buyer of every coupon of a busy month joined
 * only to be sorted away.
 */
async function pageOfSales(db: Executor, where: SQL, page: { page: number; pageSize: number }) {
  const order = sql`ORDER BY c.paid_at DESC, c.code`;
  const ids = await query<{ id: string }>(
    db,
    sql`SELECT c.id FROM ${PAID_COUPON_FACTS} WHERE ${where} ${order} LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
  );
  return ids.length
    ? couponRows(
        db,
        where,
        order,
        ids.map((r) => r.id),
      )
    : [];
}

/**
 * «Ventas» per day, for its chart: the coupons the filter matches (those the page lists), by the
 * day their sale was paid and, when redeemed, by the day they were. The days add up to the
 * page's totals of sold and redeemed coupons; days with neither are left out.
 */
export async function salesPerDay(db: Executor, scope: Scope, filter: SalesFilter): Promise<SalesDay[]> {
  const where = salesWhere(scope, filter);
  // A day is a date in Madrid; casting to date costs a quarter of formatting text per coupon.
  const day = (at: SQL) => sql`(${at} AT TIME ZONE 'Europe/Madrid')::date`;
  // Two walks of the same index range (sales by their day, redemptions by theirs) cost less than
  // one walk that writes every coupon twice.
  const rows = await query<{ day: string; sold: number; redeemed: number }>(
    db,
    sql`
    SELECT f.day::text AS day, sum(f.sold)::int AS sold, sum(f.redeemed)::int AS redeemed
    FROM (SELECT ${day(sql`c.paid_at`)} AS day, count(*) FILTER (WHERE ${IS_SOLD}) AS sold, 0 AS redeemed
            FROM ${PAID_COUPON_FACTS} WHERE ${where} GROUP BY 1
          UNION ALL
          SELECT ${day(sql`c.redeemed_at`)}, 0, count(*)
            FROM ${PAID_COUPON_FACTS} WHERE ${where} AND ${IS_REDEEMED} GROUP BY 1) AS f
    GROUP BY f.day HAVING sum(f.sold) > 0 OR sum(f.redeemed) > 0 ORDER BY f.day`,
  );
  return rows.map((r) => ({ day: r.day, sold: Number(r.sold), redeemed: Number(r.redeemed) }));
}

/**
 * Every coupon the filter matches, oldest sale first, a batch at a time, for the CSV: the export
 * is written as it is read; only the coupons' ids are held whole (~50 bytes each). The order is
 * read once, and each batch by its ids, with the filter applied again. Batches read with OFFSET
 * each joined and sorted every coupon the filter matches, so an export's time
 * grew with the square of the partner's coupons, and on PGlite each batch held the one database
 * thread that long. A sale paid while the export is written is not in it; a coupon redeemed
 * meanwhile is written as its batch finds it.
 */
export async function* partnerSalesBatches(db: Executor, scope: Scope, filter: SalesFilter, batch = 1000): AsyncGenerator<SaleRow[]> {
  const where = salesWhere(scope, filter);
  const order = sql`ORDER BY c.paid_at, c.code`;
  const ids = (
    await query<{ id: string }>(
      db,
      sql`
      SELECT c.id FROM ${PAID_COUPON_FACTS}
      WHERE ${where} ${order}`,
    )
  ).map((r) => r.id);
  for (let start = 0; start < ids.length; start += batch) {
    const rows = await couponRows(db, where, order, ids.slice(start, start + batch));
    if (rows.length > 0) yield rows.map(toSaleRow);
  }
}

/** Spreadsheet-safe CSV: «;» and decimal commas as Spanish Excel expects, a BOM for the accents. */
export const SALES_CSV_HEADER = `\uFEFF${["Fecha de pago", "Venta", "Oferta", "Opción", "Cliente", "Precio pagado", "Código promocional", "Cupón", "Estado", "Canjeado"].join(";")}\r\n`;

/** Rows of the CSV after SALES_CSV_HEADER, each ending in CRLF. */
/** A spreadsheet-safe CSV cell: quoted when it must be, and never read as a formula. */
export function csvCell(v: string | null): string {
  let text = v ?? "";
  // A cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function salesCsvLines(rows: SaleRow[]): string {
  const cell = csvCell;
  const line = (r: SaleRow) =>
    [
      r.paid_at ? formatDateTime(r.paid_at) : "",
      r.sale_id,
      r.offer.title,
      r.option.title,
      r.buyer_first_name ?? r.buyer_email_hint,
      formatCents(toCents(r.paid_price)).replace(/\s€$/u, ""),
      r.promo_code,
      r.code,
      r.state_label,
      r.redeemed_at ? formatDateTime(r.redeemed_at) : "",
    ]
      .map(cell)
      .join(";");
  return rows.map((r) => `${line(r)}\r\n`).join("");
}
