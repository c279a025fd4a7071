import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { cartFingerprint, forPresent, giftsOf } from "#rules/cart";
import { formatCents, savingCents } from "#rules/prices";
import { checkoutFormSchema, toCheckoutData } from "#contract/checkout";
import { isWalletProvider, paymentMethodsText } from "#rules/payments";
import { usePendingRemovals } from "#app/components/cart-dropdown";
import { salesApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { getCart } from "#app/state/cart.server";
import { checkoutLines } from "#app/state/checkout-lines.server";
import { commitCheckoutState, getCheckoutState } from "#app/state/checkout.server";
import { config } from "#app/env.server";
import { seo } from "#app/document/seo";
import { commitSession, flash, getSession } from "#app/state/session.server";
import { readForm } from "#app/forms/form.server";
import { isFetcherFailure, skipAfterFailure, toastOnFailure } from "#app/forms/fetcher-failure";
import type { RouteHandle } from "#app/root";
import { offerTrust, openReservations } from "./checkout-data.server";
import { CartItemForm, CheckoutItem } from "./item-forms";
import { PromoCodes } from "./promo-codes";
import { CheckoutDetailsForm } from "./details-form";
import { OpenReservations } from "./open-reservations";

export const shouldRevalidate = skipAfterFailure;
/** A refused promo code is said under its field (PromoCodes). */
export const handle: RouteHandle = { inlineMessages: ["promo_code", "gift"] };
/** With JS a «Continuar» whose post fails is a toast: the page and everything typed stay. */
export const clientAction = toastOnFailure;

export const meta: MetaFunction = () => seo({ title: "Tu carrito", description: "Revisa tu carrito y completa tu compra.", noindex: true });

const wallet = () => isWalletProvider(config().PAYMENT_PROVIDER);

export async function loader({ request }: LoaderFunctionArgs) {
  const [cart, state, session] = await Promise.all([getCart(request), getCheckoutState(request), getSession(request)]);
  const me = viewer(session);
  const [{ lines, totalCents, payable }, trust, reservations] = await Promise.all([
    checkoutLines(cart),
    // Two options of one offer are two lines, and one offer to read.
    offerTrust([...new Set(cart.items.map((i) => i.offerUuid))]),
    // Logged in: an unpaid reservation of an offer in the cart can be paid instead of bought again.
    me
      ? openReservations(
          cart.items.map((i) => i.offerUuid),
          request,
        )
      : Promise.resolve([]),
  ]);
  const subtotalCents = lines.reduce((s, l) => s + (l.problem ? 0 : l.unitCents * l.ticketsCount), 0);
  return data(
    {
      lines,
      promoCodes: cart.promoCodes,
      subtotalCents,
      totalCents,
      payable,
      wallet: wallet(),
      paymentMethods: paymentMethodsText(config().PAYMENT_PROVIDER, config().paymentMethods),
      trust,
      // Logged in, the account's email is the default; what the buyer typed last time wins.
      form: state.form ?? (me ? { email: me.email } : null),
      reservations,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/**
 * "Continuar": checks the form, asks the API to validate the order, then goes to /order/. The
 * form is anonymous and leads to a reservation, mails and maybe a marketing subscription, so it
 * carries the honeypot; the cart and promo-code forms do not (they only change this browser's
 * cookie, and promo-code checks are rate-limited by the API).
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { honeypot: true });
  const isWallet = wallet();
  const submission = parseWithZod(formData, { schema: checkoutFormSchema({ wallet: isWallet }) });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: 400 });
  }
  const cart = await getCart(request);
  if (cart.items.length === 0) return redirect("/checkout/", 303);
  const form = submission.value;
  const state = await getCheckoutState(request);
  const remembered = {
    email: form.email,
    mail_agreement: form.mail_agreement,
    need_receipt: form.need_receipt,
    subs_agreement: form.subs_agreement,
    user_fullname: form.user_fullname,
    user_tax_number: form.user_tax_number,
    user_address: form.user_address,
  };
  // The prices the buyer was shown; the API compares them with today's and says if one moved.
  const items = cart.items.map((item) => ({
    offer_price_uuid: item.priceOptionUuid,
    quantity: item.ticketsCount,
    saved_price: String(formData.get(`saved_price.${item.offerUuid}`) ?? item.savedPrice),
    slot_id: item.slotId,
    promo_codes: cart.promoCodes.map((c) => c.promo_code),
  }));
  const answer = await salesApi.validate({
    items,
    checkout_data: toCheckoutData(form, { wallet: isWallet, forPresent: forPresent(cart), gifts: giftsOf(cart) }),
  });
  const session = await getSession(request);
  if (answer.errors.length > 0 || !answer.checkout_data.session_token) {
    for (const e of answer.errors) flash(session, { type: "error", text: e.error_text });
    const headers = new Headers();
    headers.append("Set-Cookie", await commitSession(session));
    headers.append("Set-Cookie", await commitCheckoutState({ ...state, form: remembered, token: undefined }));
    return redirect("/checkout/", { status: 303, headers });
  }
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    await commitCheckoutState({
      form: remembered,
      fp: cartFingerprint(cart),
      token: answer.checkout_data.session_token,
      total: answer.sales_data.total,
      saving: savingCents(answer.sales_data.items, answer.sales_data.total),
      lines: answer.sales_data.items.map((l) => ({
        t: l.title.slice(0, 80),
        o: l.option_title.slice(0, 40),
        q: l.quantity,
        lt: l.line_total,
        pc: l.promo_code,
      })),
    }),
  );
  return redirect("/order/", { status: 303, headers });
}

export default function Checkout() {
  const { lines, subtotalCents, totalCents, promoCodes, reservations, trust, wallet, form, payable, paymentMethods } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const removing = usePendingRemovals();
  const visible = removing.has("*") ? [] : lines.filter((l) => !removing.has(l.offerUuid));
  if (visible.length === 0) {
    return (
      <section className="narrow">
        <h1>Tu carrito</h1>
        <p className="empty-state">Tu carrito de compras está vacío</p>
        <p>
          <Link to="/ofertas/" className="btn">
            Ver ofertas
          </Link>
        </p>
      </section>
    );
  }
  return (
    <>
      <h1>Tu carrito</h1>
      <OpenReservations reservations={reservations} lines={lines} />
      <div className="checkout-layout">
        <div>
          <ul className="checkout-items">
            {visible.map((line) => (
              <CheckoutItem key={line.offerUuid} line={line} trust={trust[line.offerUuid]} />
            ))}
          </ul>
          <CartItemForm intent="clear" className="clear-cart">
            <button type="submit" className="link-button small">
              Vaciar carrito
            </button>
          </CartItemForm>
        </div>
        <aside className="summary" aria-label="Resumen del pedido">
          <PromoCodes promoCodes={promoCodes} />
          <div>
            <p className="summary-row">
              <span>Subtotal</span>
              <span>{formatCents(subtotalCents)}</span>
            </p>
            {subtotalCents !== totalCents ? (
              <p className="summary-row">
                <span>Descuento</span>
                <span>−{formatCents(subtotalCents - totalCents)}</span>
              </p>
            ) : null}
            <p className="summary-row summary-total">
              <span>Total</span>
              <span data-testid="checkout-total">{formatCents(totalCents)}</span>
            </p>
          </div>
          <CheckoutDetailsForm
            lines={lines}
            wallet={wallet}
            remembered={form}
            payable={payable}
            paymentMethods={paymentMethods}
            trust={trust}
            totalCents={totalCents}
            // A post that never got an answer (a toast said so) is no result for the form: it keeps its fields.
            lastResult={isFetcherFailure(answer) ? undefined : answer}
          />
        </aside>
      </div>
    </>
  );
}
