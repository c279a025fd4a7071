import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { cartFingerprint } from "#lib/cart";
import { formatPrice } from "#lib/prices";
import { ApiError, salesApi } from "#app/lib/api.server";
import { getCart } from "#app/lib/cart.server";
import { commitCheckoutState, getCheckoutState, type CheckoutState } from "#app/lib/checkout.server";
import { redirectWithToast } from "#app/lib/session.server";
import { seo } from "#app/lib/seo";
import { skipAfterFailure } from "#app/lib/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Checkout", description: "Paga tu pedido.", noindex: true });

/** The validated order of this cart, or null when there is none or the cart changed since. */
async function currentOrder(request: Request): Promise<{ state: CheckoutState; token: string } | null> {
  const [state, cart] = await Promise.all([getCheckoutState(request), getCart(request)]);
  if (!state.token || !state.fp || state.fp !== cartFingerprint(cart)) return null;
  return { state, token: state.token };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const order = await currentOrder(request);
  if (!order) throw redirect("/checkout/");
  const { state } = order;
  return { lines: state.lines ?? [], total: state.total ?? "0.00", email: state.form?.email ?? "" };
}

/** "Pagar": creates the sale (tickets reserved) and sends the buyer to the provider's page. */
export async function action({ request }: ActionFunctionArgs) {
  const order = await currentOrder(request);
  if (!order) {
    return redirectWithToast("/checkout/", { type: "error", text: "Tu carrito ha cambiado. Revísalo y vuelve a continuar." }, request);
  }
  try {
    const { payment } = await salesApi.create(order.token, request);
    const headers = { "Set-Cookie": await commitCheckoutState({ ...order.state, sale: { id: payment.sale_id, tx: payment.transaction_id } }) };
    // A full page load: the provider's page is not a route of this app.
    return redirectDocument(payment.redirect_url, { status: 303, headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const headers = { "Set-Cookie": await commitCheckoutState({ ...order.state, token: undefined }) };
    return redirectWithToast("/checkout/", { type: "error", text: error.message }, request, { headers });
  }
}

export default function OrderPage() {
  const { lines, total, email } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <section className="narrow">
      <h1>Revisa y paga</h1>
      <ul className="checkout-items">
        {lines.map((l, i) => (
          <li key={i} className="summary-row">
            <span>
              {l.q} × {l.t}
              <br />
              <small className="muted">
                {l.o}
                {l.pc ? ` · código ${l.pc}` : ""}
              </small>
            </span>
            <strong>{formatPrice(l.lt)}</strong>
          </li>
        ))}
      </ul>
      <p className="summary-row summary-total">
        <span>Total</span>
        <span data-testid="order-total">{formatPrice(total)}</span>
      </p>
      <p className="muted">Compra a nombre de {email}.</p>
      <Form method="post">
        <button type="submit" className="btn btn-block btn-large" disabled={paying}>
          {paying ? "Preparando el pago…" : "Pagar"}
        </button>
      </Form>
      <p>
        <Link to="/checkout/">Volver al carrito</Link>
      </p>
    </section>
  );
}
