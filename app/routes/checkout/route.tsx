import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { cartFingerprint, forPresent } from "#rules/cart";
import { formatCents } from "#rules/prices";
import { checkoutFormSchema, FIELD_MESSAGES, toCheckoutData, type CheckoutForm } from "#contract/checkout";
import type { OfferRating } from "#contract/offers";
import { isWalletProvider, paymentMethodsText } from "#rules/payments";
import type { CartIntent } from "#app/routes/cart/schema";
import { usePendingRemovals } from "#app/components/cart-dropdown";
import { TrashIcon } from "#app/components/icons";
import { OrganizationRating, soldText, TrustBox } from "#app/components/trust";
import { refundTerms } from "#rules/offer-terms";
import { PriceTag } from "#app/components/price";
import { TicketCounter } from "#app/components/ticket-counter";
import { customerApi, offersApi, salesApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { getCart } from "#app/state/cart.server";
import { checkoutLines, type CheckoutLine } from "#app/state/checkout-lines.server";
import { commitCheckoutState, getCheckoutState } from "#app/state/checkout.server";
import { config } from "#app/env.server";
import { seo } from "#app/document/seo";
import { commitSession, flash, getSession } from "#app/state/session.server";
import { EnhancedInput } from "#app/components/enhanced-input";
import { Honeypot } from "#app/components/honeypot";
import { readForm } from "#app/forms/form.server";
import { isFetcherFailure, skipAfterFailure, toastOnFailure } from "#app/forms/fetcher-failure";
import { useChoiceMadeBeforeStart, useSendInTurn } from "#app/forms/before-start";
import type { RouteHandle, loader as rootLoader } from "#app/root";

export const shouldRevalidate = skipAfterFailure;
/** A refused promo code is said under its field (PromoCodes). */
export const handle: RouteHandle = { inlineMessages: ["promo_code"] };
/** With JS a «Continuar» whose post fails is a toast: the page and everything typed stay. */
export const clientAction = toastOnFailure;

export const meta: MetaFunction = () => seo({ title: "Checkout", description: "Revisa tu carrito y completa tu compra.", noindex: true });

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

type OfferTrust = { merchant: string; rating: OfferRating | null; sold: number; refundTerms: string[] };

/**
 * What the offer page says beside its buy button, said again where the money is decided: each
 * offer's partner and its rating, how many were bought, and its own cancellation terms. An offer
 * that cannot be read any more has its problem on its line already, and no trust line.
 */
async function offerTrust(uuids: string[]): Promise<Record<string, OfferTrust>> {
  const details = await Promise.all(uuids.map((uuid) => offersApi.get(uuid).catch(() => null)));
  return Object.fromEntries(
    details.flatMap((offer) =>
      offer
        ? [
            [
              offer.uuid,
              {
                merchant: offer.organization.name,
                rating: offer.organization.rating,
                sold: offer.sold_count,
                refundTerms: refundTerms(offer.conditions),
              },
            ],
          ]
        : [],
    ),
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
    checkout_data: toCheckoutData(form, { wallet: isWallet, forPresent: forPresent(cart) }),
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

function CartItemForm({
  intent,
  offerUuid,
  children,
  className,
}: {
  intent: CartIntent;
  offerUuid?: string;
  children: React.ReactNode;
  className?: string;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action="/cart" className={className}>
      <input type="hidden" name="intent" value={intent} />
      {offerUuid ? <input type="hidden" name="offerUuid" value={offerUuid} /> : null}
      <input type="hidden" name="redirectTo" value="/checkout/" />
      <EnhancedInput />
      {children}
    </fetcher.Form>
  );
}

function TicketsForm({ line }: { line: CheckoutLine }) {
  const fetcher = useFetcher();
  const intent: CartIntent = "update";
  const form = useRef<HTMLFormElement>(null);
  const sendInTurn = useSendInTurn(fetcher);
  return (
    <fetcher.Form method="post" action="/cart" className="tickets-form" ref={form}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="offerUuid" value={line.offerUuid} />
      <input type="hidden" name="redirectTo" value="/checkout/" />
      <EnhancedInput />
      <TicketCounter
        id={`tickets-${line.offerUuid}`}
        defaultValue={line.ticketsCount}
        max={Math.max(1, line.option?.max ?? 1)}
        onCommit={(value) => {
          if (value !== line.ticketsCount) {
            fetcher.submit(
              { intent, offerUuid: line.offerUuid, ticketsCount: String(value), redirectTo: "/checkout/", _enhanced: "1" },
              { method: "post", action: "/cart" },
            );
          }
        }}
        onKept={(value) => value !== line.ticketsCount && sendInTurn(form.current!)}
      />
      <button type="submit" className="btn btn-small btn-secondary no-js-only">
        Actualizar
      </button>
    </fetcher.Form>
  );
}

function GiftForm({ line }: { line: CheckoutLine }) {
  const fetcher = useFetcher();
  // Local state, so the tick shows at once; it follows the server's value when that changes.
  const [checked, setChecked] = useState(line.gift);
  useEffect(() => setChecked(line.gift), [line.gift]);
  const box = useRef<HTMLInputElement>(null);
  const sendInTurn = useSendInTurn(fetcher);
  // Ticked or unticked before the app started (and not saved then): saved now.
  useChoiceMadeBeforeStart(
    () => box.current?.checked,
    line.gift,
    (gift) => {
      setChecked(gift);
      sendInTurn(box.current!.form!);
    },
  );
  return (
    <fetcher.Form method="post" action="/cart" className="gift-form">
      <input type="hidden" name="intent" value="gift" />
      <input type="hidden" name="offerUuid" value={line.offerUuid} />
      <input type="hidden" name="redirectTo" value="/checkout/" />
      <EnhancedInput />
      <label className="checkbox">
        <input
          ref={box}
          type="checkbox"
          name="gift"
          checked={checked}
          onChange={(e) => {
            setChecked(e.currentTarget.checked);
            fetcher.submit(e.currentTarget.form);
          }}
        />
        <span>Es un regalo</span>
      </label>
      <button type="submit" className="btn btn-small btn-secondary no-js-only">
        Guardar
      </button>
    </fetcher.Form>
  );
}

function CheckoutItem({ line }: { line: CheckoutLine }) {
  const trust = useLoaderData<typeof loader>().trust[line.offerUuid];
  return (
    <li className="checkout-item">
      {line.image ? <img src={line.image.url} alt="" width={96} height={60} /> : <span />}
      <div>
        <h2>
          <Link to={`/ofertas/${line.offerUuid}/`}>{line.title}</Link>
        </h2>
        {line.option ? <p className="muted small">{line.option.title}</p> : null}
        {trust ? (
          <div className="checkout-item-trust">
            <p>
              {trust.merchant}
              {trust.sold ? <span data-testid="sold-count"> · {soldText(trust.sold)}</span> : null}
            </p>
            {trust.rating ? <OrganizationRating rating={trust.rating} /> : null}
          </div>
        ) : null}
        {line.option && !line.problem ? (
          <p>
            {line.promoUnitCents < line.unitCents ? (
              <>
                <strong>{formatCents(line.promoUnitCents * line.ticketsCount)}</strong>{" "}
                <s className="muted">{formatCents(line.unitCents * line.ticketsCount)}</s>
              </>
            ) : (
              <PriceTag actual={line.option.actual_price} regular={line.option.regular_price} tickets={line.ticketsCount} />
            )}
          </p>
        ) : null}
      </div>
      {line.problem ? (
        <p className="item-warning" role="alert">
          {line.problem}
        </p>
      ) : null}
      {line.notice ? <p className="item-warning">{line.notice}</p> : null}
      <div className="checkout-item-controls">
        {line.option ? <TicketsForm line={line} /> : null}
        {line.option ? <GiftForm line={line} /> : null}
        <CartItemForm intent="remove" offerUuid={line.offerUuid}>
          <button type="submit" className="btn btn-small btn-secondary" aria-label={`Quitar ${line.title}`}>
            <TrashIcon /> Quitar
          </button>
        </CartItemForm>
      </div>
    </li>
  );
}

/**
 * A refused code, from the root loader's messages (tagged by the cart action): shown under the field
 * with the code as typed, until the buyer changes it. Without JS it comes with the page after the
 * redirect; with JS it arrives with the revalidation after the fetcher's post.
 */
function useRefusedPromoCode() {
  const refused = useRouteLoaderData<typeof rootLoader>("root")?.toasts.find((t) => t.field === "promo_code" && t.type === "error");
  const [shown, setShown] = useState(refused ? { code: refused.value ?? "", text: refused.text } : null);
  useEffect(() => {
    if (refused) setShown({ code: refused.value ?? "", text: refused.text });
  }, [refused]);
  return [shown, setShown] as const;
}

function PromoCodes() {
  const { promoCodes } = useLoaderData<typeof loader>();
  const fetcher = useFetcher();
  const adding = fetcher.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  const applied = promoCodes.map((c) => c.promo_code).join();
  const [refused, setRefused] = useRefusedPromoCode();
  // Once a code is in the list, the field is cleared for the next one.
  useEffect(() => {
    formRef.current?.reset();
    setRefused(null);
  }, [applied, setRefused]);
  return (
    <section aria-labelledby="promo-title">
      <h2 id="promo-title" className="small">
        Descuentos
      </h2>
      {promoCodes.length ? (
        <ul className="promo-list">
          {promoCodes.map((c) => (
            <li key={c.promo_code} className="promo-chip">
              {c.promo_code}
              <CartItemForm intent="promo-remove">
                <input type="hidden" name="promo_code" value={c.promo_code} />
                <button type="submit" className="icon-button" aria-label={`Quitar el código ${c.promo_code}`}>
                  ×
                </button>
              </CartItemForm>
            </li>
          ))}
        </ul>
      ) : null}
      <fetcher.Form method="post" action="/cart" className="promo-form" ref={formRef}>
        <input type="hidden" name="intent" value="promo-add" />
        <input type="hidden" name="redirectTo" value="/checkout/" />
        <EnhancedInput />
        <div className="field">
          <label htmlFor="promo_code">Código promocional</label>
          <input
            id="promo_code"
            name="promo_code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            required
            maxLength={40}
            defaultValue={refused?.code}
            aria-invalid={refused ? true : undefined}
            aria-describedby="promo_code-error"
            onInput={(e) => {
              if (refused && e.currentTarget.value.trim().toUpperCase() !== refused.code.trim().toUpperCase()) setRefused(null);
            }}
          />
        </div>
        <button type="submit" className="btn btn-secondary" disabled={adding}>
          Aplicar
        </button>
        <p id="promo_code-error" className="field-error">
          {refused?.text}
        </p>
      </fetcher.Form>
      {promoCodes.length > 1 ? (
        <CartItemForm intent="promo-clear">
          <button type="submit" className="link-button small">
            Quitar todos los códigos
          </button>
        </CartItemForm>
      ) : null}
    </section>
  );
}

function ErrorSummary({ errors, attempt }: { errors: { id: string; message: string }[]; attempt: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors.length > 0;
  // With JS there is no page load to land on it: each refused «Continuar» moves focus there
  // (after conform has focused the first invalid field).
  useEffect(() => {
    if (attempt && shown) ref.current?.focus();
  }, [attempt, shown]);
  if (!errors.length) return null;
  return (
    // autoFocus lands a no-JS page on the summary too: a #fragment in the form's action would have
    // followed the 303 of a successful post onto /order/.
    <div id="checkout-errors" className="error-summary" role="alert" tabIndex={-1} ref={ref} autoFocus>
      <h2>Revisa estos datos</h2>
      <ul>
        {errors.map((e) => (
          <li key={e.id}>
            <a href={`#${e.id}`}>{e.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

const longestMessage = (name: string) =>
  (FIELD_MESSAGES[name as keyof typeof FIELD_MESSAGES] ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");

function CheckoutDetailsForm() {
  const { lines, wallet, form: remembered, payable, paymentMethods, trust } = useLoaderData<typeof loader>();
  // Each offer's own terms, once; none at all, the user agreement's.
  const terms = [...new Set(lines.flatMap((l) => trust[l.offerUuid]?.refundTerms ?? []))];
  const answer = useActionData<typeof action>();
  // A post that never got an answer (a toast said so) is no result for the form: it keeps its fields.
  const lastResult = isFetcherFailure(answer) ? undefined : answer;
  const navigation = useNavigation();
  const schema = checkoutFormSchema({ wallet });
  const [form, fields] = useForm<CheckoutForm>({
    id: "checkout",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: remembered ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/checkout");
  // «Continuar» presses the browser refused (conform's validation prevented the post), and answers
  // from the server: either one shows the summary.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (lastResult) setAttempt((n) => n + 1);
  }, [lastResult]);
  const formProps = getFormProps(form);
  // Always rendered, with room for the field's longest message (data-room, styles.css): a message
  // appearing on blur must not move the control the buyer is pressing at that moment.
  const errorOf = (field: { errors?: string[]; errorId: string; name: string }) => (
    <p id={field.errorId} className="field-error" data-room={longestMessage(field.name)}>
      <span>{field.errors?.[0]}</span>
    </p>
  );
  // After a «Continuar», every error at once, summarised at the top; the list follows the fields as
  // they are fixed. (conform's `fields` is a proxy: it is read by name, never enumerated.)
  const summary =
    attempt || lastResult?.error
      ? (["email", "user_fullname", "subs_agreement", "user_tax_number", "user_address"] as const).flatMap((name) => {
          const message = fields[name].errors?.[0] ?? (attempt ? undefined : lastResult?.error?.[name]?.[0]);
          return message ? [{ id: fields[name].id, message }] : [];
        })
      : [];
  const fullName = (
    <div className="field">
      <label htmlFor={fields.user_fullname.id}>Nombre completo o razón social</label>
      <input {...getInputProps(fields.user_fullname, { type: "text" })} autoComplete="name" />
      {errorOf(fields.user_fullname)}
    </div>
  );
  return (
    <Form
      method="post"
      action="/checkout/"
      className="checkout-form"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        // conform validates a field on blur by submitting the form through a hidden intent button:
        // only the buyer's own «Continuar» counts.
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (event.defaultPrevented && submitter?.getAttribute("name") !== "__intent__") setAttempt((n) => n + 1);
      }}
    >
      <ErrorSummary errors={summary} attempt={attempt} />
      {lines.map((l) =>
        l.option ? <input key={l.offerUuid} type="hidden" name={`saved_price.${l.offerUuid}`} value={l.option.actual_price} /> : null,
      )}
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        <small className="muted">Te enviaremos aquí la confirmación y los cupones.</small>
        {errorOf(fields.email)}
      </div>
      {wallet ? fullName : null}
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            id={fields.subs_agreement.id}
            name={fields.subs_agreement.name}
            // Kept after a failed submit, or the next «Continuar» would fail again for the same reason.
            defaultChecked={fields.subs_agreement.initialValue === "on"}
            required
            aria-invalid={fields.subs_agreement.errors ? true : undefined}
            aria-describedby={fields.subs_agreement.errors ? fields.subs_agreement.errorId : undefined}
          />
          <span>
            He leído y acepto el <a href="/agreement">Acuerdo De Usuario</a> y la <a href="/privacy-policy">Política de privacidad</a>.
          </span>
        </label>
        {errorOf(fields.subs_agreement)}
      </div>
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            id={fields.mail_agreement.id}
            name={fields.mail_agreement.name}
            defaultChecked={fields.mail_agreement.initialValue === "on"}
          />
          <span>
            Quiero recibir ofertas por correo (<a href="/marketing-agreement">Consentimiento comercial</a>). Puedes darte de baja en
            cualquier momento.
          </span>
        </label>
      </div>
      <div>
        <label className="checkbox">
          {/* Plain checkboxes: conform's keyed props would remount them on each validation. */}
          <input
            type="checkbox"
            id={fields.need_receipt.id}
            name={fields.need_receipt.name}
            className="need-receipt"
            defaultChecked={fields.need_receipt.initialValue === "on"}
          />
          <span>Necesito factura</span>
        </label>
      </div>
      {/* Shown by CSS when "Necesito factura" is ticked, so it needs no JavaScript. */}
      <fieldset className="receipt-fields">
        <legend>Datos de facturación</legend>
        {wallet ? null : fullName}
        <div className="field">
          <label htmlFor={fields.user_tax_number.id}>NIF, NIE o CIF</label>
          <input {...getInputProps(fields.user_tax_number, { type: "text" })} autoComplete="off" />
          {errorOf(fields.user_tax_number)}
        </div>
        <div className="field">
          <label htmlFor={fields.user_address.id}>Dirección de facturación</label>
          <input {...getInputProps(fields.user_address, { type: "text" })} autoComplete="address-line1" />
          {errorOf(fields.user_address)}
        </div>
      </fieldset>
      <Honeypot />
      <button type="submit" className="btn btn-block btn-large" disabled={!payable || submitting}>
        {submitting ? "Comprobando…" : "Continuar"}
      </button>
      {!payable ? <p className="field-error">Resuelve los avisos de tu carrito para continuar.</p> : null}
      <TrustBox paymentMethods={paymentMethods} refundTerms={terms} />
    </Form>
  );
}

async function openReservations(offerUuids: string[], request: Request) {
  const answers = await Promise.all(
    offerUuids.map((uuid) =>
      customerApi
        .reserveExists(uuid, request)
        .then((r) => (r.exists && r.redirect_url ? [{ offerUuid: uuid, redirectUrl: r.redirect_url, expiresAt: r.expires_at }] : []))
        .catch(() => []),
    ),
  );
  // One sale can hold several offers of the cart: offer it once.
  const seen = new Set<string>();
  return answers.flat().filter((r) => !seen.has(r.redirectUrl) && seen.add(r.redirectUrl));
}

function OpenReservations() {
  const { reservations, lines } = useLoaderData<typeof loader>();
  if (reservations.length === 0) return null;
  return (
    <div className="notice" role="status">
      {reservations.map((r) => {
        const title = lines.find((l) => l.offerUuid === r.offerUuid)?.title ?? "una oferta";
        return (
          <p key={r.redirectUrl}>
            Tienes una reserva sin pagar de «{title}» hasta las{" "}
            {new Date(r.expiresAt).toLocaleTimeString("es-ES", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Madrid" })}.{" "}
            <a href={r.redirectUrl} className="btn btn-small">
              Continuar con el pago
            </a>
          </p>
        );
      })}
    </div>
  );
}

export default function Checkout() {
  const { lines, subtotalCents, totalCents } = useLoaderData<typeof loader>();
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
      <OpenReservations />
      <div className="checkout-layout">
        <div>
          <ul className="checkout-items">
            {visible.map((line) => (
              <CheckoutItem key={line.offerUuid} line={line} />
            ))}
          </ul>
          <CartItemForm intent="clear" className="clear-cart">
            <button type="submit" className="link-button small">
              Vaciar carrito
            </button>
          </CartItemForm>
        </div>
        <aside className="summary" aria-label="Resumen del pedido">
          <PromoCodes />
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
          <CheckoutDetailsForm />
        </aside>
      </div>
    </>
  );
}
