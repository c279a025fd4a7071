import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { isUuid } from "#rules/uuid";
import { orderNumber } from "#rules/coupons";
import { authData } from "#app/state/auth.server";
import { getSession } from "#app/state/session.server";
import { ApiError, salesApi } from "#app/api-client/client.server";
import { commitCart } from "#app/state/cart.server";
import { commitCheckoutState, getCheckoutState } from "#app/state/checkout.server";
import { EMPTY_CART } from "#rules/cart";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { PurchaseCoupons } from "#app/routes/order+shared/purchase-coupons";
import { purchaseQrs } from "#app/routes/order+shared/coupon-qr.server";
import { signedCouponLinks } from "#app/routes/order+shared/links";
import { skipAfterFailure } from "#app/forms/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Tu compra", description: "Tu compra.", noindex: true });

/**
 * The provider sends the buyer here. Capturing is idempotent on the API, so a reload, the
 * webhook and this page racing each other still give one purchase and one set of coupons.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const transactionId = new URL(request.url).searchParams.get("transaction_id");
  if (!transactionId) throw redirect("/");
  const state = await getCheckoutState(request);
  const ref = [state.sale, state.done].find((s) => s?.tx === transactionId.toLowerCase());
  if (!isUuid(transactionId) || !ref) {
    return data(
      { purchase: null, pending: false, tx: null, links: null, qrs: null },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  }
  try {
    const purchase = await salesApi.capture(ref.id, ref.tx);
    if (state.sale) {
      // Paid: empty the cart and load this page once more, so that the header (read in parallel
      // from this request's cookies) no longer shows the bought items.
      const headers = new Headers();
      headers.append("Set-Cookie", await commitCart(EMPTY_CART));
      headers.append("Set-Cookie", await commitCheckoutState({ form: state.form, done: ref }));
      throw redirect(`/order/success?transaction_id=${ref.tx}`, { headers });
    }
    const { coupons_sig, ...paid } = purchase;
    // The mail's signed links, never the bare sale id: a guest keeps the PDF and the page without an account.
    const guest = !authData(await getSession(request));
    return data(
      {
        purchase: paid,
        pending: false,
        tx: null,
        links: signedCouponLinks(paid.sale_id, coupons_sig),
        qrs: purchaseQrs(paid.items),
        guest,
      },
      { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } },
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 409 && /todavía/.test(error.message)) {
      return data(
        { purchase: null, pending: true, tx: ref.tx, links: null, qrs: null },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    }
    throw await redirectWithToast("/checkout/", { type: "error", text: error.message }, request);
  }
}

export default function OrderSuccess() {
  const loaded = useLoaderData<typeof loader>();
  const { purchase, pending, tx, links, qrs } = loaded;
  if (!purchase || !links || !qrs) {
    return (
      <section className="narrow">
        <h1>{pending ? "Estamos confirmando tu pago" : "No encontramos este pedido"}</h1>
        <p>
          {pending
            ? "El proveedor de pago aún no nos ha confirmado el cobro. Suele tardar unos segundos."
            : "Este enlace de pago no corresponde a una compra hecha en este navegador."}
        </p>
        {pending ? null : (
          <p>
            Si has pagado, tus cupones están en el correo «Tus cupones de ofertas»: su enlace «Ver mis cupones» los abre en cualquier
            navegador. También puedes <Link to="/login">entrar con el mismo correo</Link> (te enviamos un código) y verlos en tus pedidos.
            ¿No te llegó el correo? <Link to="/contacts">Escríbenos</Link> con tu correo y te ayudamos.
          </p>
        )}
        <p className="success-actions">
          {tx ? (
            <Link to={`/order/success?transaction_id=${tx}`} className="btn" reloadDocument>
              Comprobar el pago de nuevo
            </Link>
          ) : null}
          <Link to="/" className={tx ? "btn btn-secondary" : "btn"}>
            Ir a la página principal
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>¡Gracias por tu compra!</h1>
      <p>
        Pedido nº <strong data-testid="order-number">{orderNumber(purchase.sale_id)}</strong>. Compra confirmada para{" "}
        <strong>{purchase.email}</strong>. Te hemos enviado los cupones por correo, con un PDF para imprimir. Guárdalos: los necesitarás
        para disfrutar de tus ofertas.
      </p>
      <p className="success-actions">
        {/* No `download` attribute: the answer is an attachment anyway, and Chromium passes a
            download link around the offline worker, which then could not keep the PDF. */}
        <a href={links.pdf} className="btn">
          Descargar cupones (PDF)
        </a>
        <a href={links.page} className="btn btn-secondary">
          Ver mis cupones
        </a>
      </p>
      {"guest" in loaded && loaded.guest ? (
        <p data-testid="way-back">
          Para volver a tus cupones más tarde, usa el enlace «Ver mis cupones» del correo que te hemos enviado, o{" "}
          <Link to="/login">entra con {purchase.email}</Link>: te enviamos un código y los tienes en tus pedidos.
        </p>
      ) : null}
      <PurchaseCoupons purchase={purchase} details qrs={qrs} />
      <p>
        <Link to="/" className="btn btn-secondary">
          Seguir comprando
        </Link>
      </p>
    </section>
  );
}
