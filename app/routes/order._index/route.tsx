import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { formatCents, toCents } from "#rules/prices";
import { PAYMENT_METHOD_BUTTONS, SECURE_PAYMENT_TEXT, payingWith } from "#rules/payments";
import { LockIcon } from "#app/components/icons";
import { currentOrder, startPayment } from "#app/routes/order+shared/payment.server";
import { config } from "#app/env.server";
import { seo } from "#app/document/seo";
import { WalletButtons } from "./wallet-buttons";
import { skipAfterFailure } from "#app/forms/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Revisa y paga", description: "Paga tu pedido.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const order = await currentOrder(request);
  if (!order) throw redirect("/checkout/");
  const { state } = order;
  const c = config();
  // The spec's wallet variant: PayPal's own buttons, from its JS SDK, on this page only.
  const wallet = c.PAYMENT_PROVIDER === "paypal" && c.PAYPAL_CLIENT_ID ? { clientId: c.PAYPAL_CLIENT_ID } : null;
  // Redsys: «Pagar con tarjeta» and, when the terminal has it, «Pagar con Bizum»; else one «Pagar».
  return {
    lines: state.lines ?? [],
    totalCents: toCents(state.total ?? "0"),
    savingCents: state.saving ?? 0,
    email: state.form?.email ?? "",
    wallet,
    methods: c.paymentMethods,
    // What the buyer will pay with, and why the page they go to is safe, for the provider configured.
    paymentMethods: payingWith(c.PAYMENT_PROVIDER, c.paymentMethods),
    secure: SECURE_PAYMENT_TEXT[c.PAYMENT_PROVIDER],
  };
}

/** "Pagar": creates the sale (tickets reserved) and sends the buyer to the provider's page. */
export async function action({ request }: ActionFunctionArgs) {
  const started = await startPayment(request);
  if (!started.ok) return started.response;
  // A full page load: the provider's page is not a route of this app.
  return redirectDocument(started.payment.redirect_url, { status: 303, headers: started.headers });
}

export default function OrderPage() {
  const { lines, totalCents, savingCents, email, wallet, methods, paymentMethods, secure } = useLoaderData<typeof loader>();
  const [walletReady, setWalletReady] = useState(false);
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formMethod === "POST";
  const chosen = navigation.formData?.get("payment_method");
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
            <strong>{formatCents(toCents(l.lt))}</strong>
          </li>
        ))}
      </ul>
      <p className="summary-row summary-total">
        <span>Total</span>
        <span data-testid="order-total">{formatCents(totalCents)}</span>
      </p>
      {savingCents > 0 ? (
        <p className="order-saving" data-testid="order-saving">
          Ahorras {formatCents(savingCents)}
        </p>
      ) : null}
      <ul className="trust order-trust" aria-label="Cómo pagas">
        <li data-testid="order-method">
          <span>
            <strong>Forma de pago:</strong> {paymentMethods}
          </span>
        </li>
        <li data-testid="order-secure">
          <LockIcon />
          <span>
            <strong>Pago seguro</strong> · {secure}
          </span>
        </li>
      </ul>
      <p className="muted">Compra a nombre de {email}.</p>
      {wallet ? <WalletButtons clientId={wallet.clientId} onReady={setWalletReady} /> : null}
      <Form method="post" hidden={walletReady} className="pay-methods">
        {/* With analytics consent, the consented tools' script adds the browser's device id here (tracking.client.ts). */}
        {methods.length ? (
          // One button per way of paying: the one pressed names it, with JavaScript or without.
          methods.map((method, i) => (
            <button
              key={method}
              type="submit"
              name="payment_method"
              value={method}
              className={i === 0 ? "btn btn-block btn-large" : "btn btn-block btn-large btn-secondary"}
              disabled={paying}
            >
              {paying && chosen === method ? "Preparando el pago…" : PAYMENT_METHOD_BUTTONS[method]}
            </button>
          ))
        ) : (
          <button type="submit" className="btn btn-block btn-large" disabled={paying}>
            {paying ? "Preparando el pago…" : "Pagar"}
          </button>
        )}
      </Form>
      <p>
        <Link to="/checkout/">Volver al carrito</Link>
      </p>
    </section>
  );
}
