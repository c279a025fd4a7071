import { Link, useFetcher, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { formatCents } from "#rules/prices";
import { formatDate } from "#rules/dates";
import { GIFT_MESSAGE_MAX, GIFT_NAME_MAX, giftFormId, typedGiftOf } from "#rules/gifts";
import type { rootLoader } from "#app/state/root-data.server";
import type { CartIntent } from "#app/forms/cart-form";
import { TrashIcon } from "#app/components/icons";
import { OrganizationRating, soldText } from "#app/components/trust";
import { PriceTag } from "#app/components/price";
import { TicketCounter } from "#app/components/ticket-counter";
import { EnhancedInput } from "#app/components/enhanced-input";
import { useChoiceMadeBeforeStart, useSendInTurn } from "#app/forms/before-start";
import type { CheckoutLine } from "#app/state/checkout-lines.server";
import type { OfferTrust } from "./checkout-data.server";

/** A form that posts one change to the cart action and comes back here. */
export function CartItemForm({
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

/**
 * Who the gift is for. Shown once the line is a gift (ticked, or «Guardar» without JS): the same
 * plain form either way, checked by giftDetailsSchema in the cart action.
 */
function GiftDetailsForm({ line }: { line: CheckoutLine }) {
  const fetcher = useFetcher();
  const g = line.giftTo;
  const id = (name: string) => `${name}-${line.offerUuid}`;
  // A refusal (tagged by the cart action) is said here, and the fields keep what was typed.
  const toasts = useRouteLoaderData<typeof rootLoader>("root")?.toasts ?? [];
  const refusal = toasts.find((t) => t.field === "gift" && t.type === "error" && typedGiftOf(t.value)?.offer === line.offerUuid);
  const typed = refusal ? typedGiftOf(refusal.value) : null;
  const value = (name: "recipient_name" | "sender_name" | "recipient_email" | "message" | "send_on") => typed?.[name] ?? g?.[name] ?? "";
  return (
    <fetcher.Form
      method="post"
      action="/cart"
      className="gift-details"
      id={giftFormId(line.offerUuid)}
      aria-label={`Regalo: ${line.title}`}
      // A new refusal draws the fields again with what was typed then.
      key={refusal ? `refused:${refusal.value}` : "saved"}
    >
      <input type="hidden" name="intent" value="gift-details" />
      <input type="hidden" name="offerUuid" value={line.offerUuid} />
      <input type="hidden" name="redirectTo" value="/checkout/" />
      <EnhancedInput />
      {g ? (
        <p className="small" data-testid="gift-summary">
          Para <strong>{g.recipient_name}</strong>
          {g.sender_name ? `, de parte de ${g.sender_name}` : ""}
          {g.recipient_email ? ` · se le enviará a ${g.recipient_email}${g.send_on ? ` el ${formatDate(g.send_on)}` : " al pagar"}` : ""}
        </p>
      ) : (
        <p className="small">Dinos para quién es: su cupón llevará su nombre y tu mensaje, nunca el precio.</p>
      )}
      {refusal ? (
        <p className="field-error" role="alert" id={id("gift_error")}>
          {refusal.text}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={id("recipient_name")}>Nombre de quien lo recibe</label>
        <input
          id={id("recipient_name")}
          name="recipient_name"
          required
          maxLength={GIFT_NAME_MAX}
          defaultValue={value("recipient_name")}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor={id("sender_name")}>De parte de (opcional)</label>
        <input
          id={id("sender_name")}
          name="sender_name"
          type="text"
          maxLength={GIFT_NAME_MAX}
          defaultValue={value("sender_name")}
          autoComplete="name"
        />
      </div>
      <div className="field">
        <label htmlFor={id("recipient_email")}>Su email (opcional, le enviamos el cupón)</label>
        <input id={id("recipient_email")} name="recipient_email" type="email" defaultValue={value("recipient_email")} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor={id("message")}>Mensaje (opcional)</label>
        <textarea id={id("message")} name="message" rows={3} maxLength={GIFT_MESSAGE_MAX} defaultValue={value("message")} />
      </div>
      <div className="field">
        <label htmlFor={id("send_on")}>Día del envío (opcional; sin fecha, al pagar)</label>
        <input id={id("send_on")} name="send_on" type="date" defaultValue={value("send_on")} />
      </div>
      <button type="submit" className="btn btn-small btn-secondary">
        Guardar regalo
      </button>
    </fetcher.Form>
  );
}

/** One line of the cart: the offer, its partner, its price, and the forms that change it. */
export function CheckoutItem({ line, trust }: { line: CheckoutLine; trust: OfferTrust | undefined }) {
  return (
    <li className="checkout-item">
      {line.image ? <img src={line.image.url} alt="" width={96} height={60} /> : <span />}
      <div className="checkout-item-info">
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
      <CartItemForm intent="remove" offerUuid={line.offerUuid} className="checkout-item-remove">
        <button type="submit" className="btn btn-small btn-secondary" aria-label={`Quitar ${line.title}`}>
          <TrashIcon /> <span className="remove-label">Quitar</span>
        </button>
      </CartItemForm>
      {line.problem ? (
        <p className="item-warning" role="alert">
          {line.problem}
        </p>
      ) : null}
      {line.notice ? <p className="item-warning">{line.notice}</p> : null}
      <div className="checkout-item-controls">
        {line.option ? <TicketsForm line={line} /> : null}
        {line.option ? <GiftForm line={line} /> : null}
      </div>
      {line.option && line.gift ? <GiftDetailsForm line={line} /> : null}
    </li>
  );
}
