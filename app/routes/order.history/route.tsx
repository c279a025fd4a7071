import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { ORDER_HISTORY_PAGE_SIZE } from "#rules/accounts";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { COUPON_STATE_LABELS, orderLabel } from "#rules/coupons";
import type { CustomerPurchase } from "#contract/customer";
import { customerApi } from "#app/api-client/client.server";
import { isSessionGone, sessionEnded } from "#app/state/session-ended.server";
import { viewer } from "#app/state/auth.server";
import { getSession } from "#app/state/session.server";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { seo } from "#app/document/seo";
import { cached } from "./query-cache";
import { countOf } from "#rules/plurals";
import { CouponRefund, CouponStateBadge } from "#app/routes/order+shared/refund";
import { refundAction } from "#app/routes/order+shared/refund.server";

export const meta: MetaFunction = () => seo({ title: "Mis pedidos", description: "Tus compras y cupones.", noindex: true });

/** The key the purchases list is known by (spec section 7: cached under ORDER_HISTORY). */
export const ORDER_HISTORY = "ORDER_HISTORY";

/** spec section 2: logged-in only, otherwise the main page. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!viewer(await getSession(request))) throw redirect("/");
  try {
    const { page, ...list } = await loadPage(request, ORDER_HISTORY_PAGE_SIZE, (q) => customerApi.purchases(q, request));
    return data(
      { key: ORDER_HISTORY, page, count: list.count, purchases: list.results },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    // The session was ended (another device, a password change) or died since the refresh.
    if (isSessionGone(error)) await sessionEnded(request, "/login?redirectTo=%2Forder%2Fhistory");
    throw error;
  }
}

/** «Solicitar devolución» of one of the account's coupons; back to the same page of the list. */
export async function action({ request }: ActionFunctionArgs) {
  if (!viewer(await getSession(request))) throw redirect("/");
  const page = new URL(request.url).searchParams.get("page");
  return refundAction(request, { sig: null, back: `/order/history${page && /^\d+$/.test(page) ? `?page=${page}` : ""}` });
}

/**
 * With JavaScript, moving between pages does not ask the server again for a minute: the list is
 * kept under ORDER_HISTORY (and its page). Without JavaScript every visit is a fresh page.
 */
export async function clientLoader({ serverLoader, request }: ClientLoaderFunctionArgs) {
  const page = new URL(request.url).searchParams.get("page") ?? "1";
  return cached(`${ORDER_HISTORY}:${page}`, () => serverLoader<typeof loader>());
}

const STATUS_LABELS: Record<string, string> = {
  paid: "Pagado",
  pending: "Pendiente de pago",
  refund_required: "Reembolso en curso",
  refunded: "Devuelto",
};

/**
 * To /feedback as the logged-in buyer: the account is the proof, so the form carries no address.
 * One group of five star radios and «Valorar» (a GET, like the mail's star links), each star a
 * 44 px target.
 */
function Stars({ offer, title }: { offer: string; title: string }) {
  return (
    <Form method="get" action="/feedback" className="rate-form">
      <fieldset className="star-rating">
        <legend>
          Tu valoración<span className="visually-hidden"> de «{title}»</span>
        </legend>
        <span className="star-row">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n}>
              <input type="radio" name="rate" value={n} required />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{countOf(n, "estrella", "estrellas")}</span>
            </label>
          ))}
        </span>
      </fieldset>
      <input type="hidden" name="offer" value={offer} />
      <button type="submit" className="btn btn-small btn-secondary">
        Valorar
      </button>
    </Form>
  );
}

function PurchaseCard({ purchase }: { purchase: CustomerPurchase }) {
  return (
    <article className="purchase" aria-labelledby={`purchase-${purchase.sale_id}`}>
      <header className="purchase-head">
        <h2 id={`purchase-${purchase.sale_id}`}>Pedido del {formatDate(purchase.paid_at ?? purchase.created_at)}</h2>
        <p className="order-number">{orderLabel(purchase.sale_id)}</p>
        <p>
          <span className={`status status-${purchase.status}`}>{STATUS_LABELS[purchase.status] ?? purchase.status}</span> ·{" "}
          <strong>{formatPrice(purchase.total)}</strong>
        </p>
      </header>
      <ul className="purchase-items">
        {purchase.items.map((item) => (
          <li key={`${item.offer_uuid}-${item.option_title}`}>
            <p className="purchase-item-title">
              <Link to={`/ofertas/${item.offer_uuid}/`}>{item.title}</Link>
            </p>
            <p className="muted">
              {item.option_title} · {item.quantity} × {formatPrice(item.paid_unit_price)}
              {item.valid_until ? ` · válido hasta el ${formatDate(item.valid_until)}` : ""}
              {item.for_present ? " · regalo" : ""}
            </p>
            {item.coupons.length ? (
              <ul className="coupon-list" aria-label={`Cupones de ${item.title}`}>
                {item.coupons.map((coupon) => (
                  <li key={coupon.uuid} className="coupon-row" id={`cupon-${coupon.code}`}>
                    <code data-testid="history-coupon-code">{coupon.code}</code>
                    {coupon.state === "valid" && (!coupon.refund || coupon.refund.outcome === "refused") ? (
                      <span className="coupon-state coupon-valid">{COUPON_STATE_LABELS.valid}</span>
                    ) : (
                      <CouponStateBadge coupon={coupon} />
                    )}
                    {/* A document load, not a fetch: the browser itself saves the PDF, with or without JS. */}
                    <Form method="post" action="/order/coupon-pdf" reloadDocument className="inline-form">
                      <input type="hidden" name="intent" value="download" />
                      <input type="hidden" name="coupon" value={coupon.uuid} />
                      <button type="submit" className="btn btn-small btn-secondary" aria-label={`Descargar PDF del cupón ${coupon.code}`}>
                        Descargar PDF
                      </button>
                    </Form>
                    <CouponRefund coupon={coupon} price={formatPrice(item.paid_unit_price)} saleId={purchase.sale_id} />
                  </li>
                ))}
              </ul>
            ) : null}
            {purchase.status === "paid" ? <Stars offer={item.offer_uuid} title={item.title} /> : null}
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function OrderHistory() {
  const { purchases, page, count } = useLoaderData<typeof loader>();
  return (
    <section className="order-history">
      <h1>Mis pedidos</h1>
      {count === 0 ? (
        <div className="empty-state">
          <p>Todavía no has comprado nada con esta cuenta. Cuando compres, tus pedidos y cupones aparecerán aquí.</p>
          <p>
            <Link to="/ofertas/" className="btn">
              Ver ofertas
            </Link>
          </p>
        </div>
      ) : (
        <>
          {purchases.map((p) => (
            <PurchaseCard key={p.sale_id} purchase={p} />
          ))}
          <Pagination page={page} count={count} pageSize={ORDER_HISTORY_PAGE_SIZE} label="Páginas de pedidos" />
        </>
      )}
    </section>
  );
}
