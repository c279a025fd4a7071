import { Link, useFetcher, useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { OfferDetail } from "#contract/offers";
import type { CartItem } from "#rules/cart";
import { maxTickets } from "#rules/prices";
import { plural } from "#rules/plurals";
import { DiscountBadge, PriceTag } from "#app/components/price";
import { TicketCounter } from "#app/components/ticket-counter";
import { EnhancedInput } from "#app/components/enhanced-input";
import { openCartPanel } from "#app/components/cart-dropdown";
import { optionTicketsField, type CartIntent } from "#app/forms/cart-form";
import { useChoiceMadeBeforeStart } from "#app/forms/before-start";
import type { rootLoader } from "#app/state/root-data.server";

/**
 * The offer's options, the tickets of the chosen one and «Añadir al carrito», as one form to the
 * cart action; on phones a sticky bar repeats the price and the button while the box is off screen.
 */
export function AddToCart({ offer, inCart }: { offer: Pick<OfferDetail, "uuid" | "price_options">; inCart: CartItem | null }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const firstOnSale = offer.price_options.find((o) => o.available > 0);
  const [selected, setSelected] = useState(
    inCart && offer.price_options.some((o) => o.uuid === inCart.priceOptionUuid && o.available > 0)
      ? inCart.priceOptionUuid
      : firstOnSale?.uuid,
  );
  // An option chosen before the app started stays chosen.
  useChoiceMadeBeforeStart(
    () => document.querySelector<HTMLInputElement>("#buy input[name=priceOptionUuid]:checked")?.value,
    selected,
    setSelected,
  );
  const option = offer.price_options.find((o) => o.uuid === selected);
  const soldOut = !firstOnSale;
  const adding = fetcher.state !== "idle";
  const intent: CartIntent = "add";
  const root = useRouteLoaderData<typeof rootLoader>("root");
  // «Añadido» from the cart action (a tagged message): without JS it comes with the page the post
  // was redirected to; with JS with the revalidation after it.
  const added = root?.toasts.find((t) => t.field === "cart" && t.type === "success");
  // The bar is for a message that came with the page (without JS, or a post sent before the app
  // started): it stays as drawn, never removed as the app starts. An add made with JS is said by
  // its toast and the cart panel instead.
  const [withPage] = useState(() => Boolean(added));
  // With JS a successful add opens the cart panel, where «Ir a pagar» is focused; the box's own
  // «Ir a pagar» (then=pay) goes on to the checkout, as its post does without JS.
  const navigate = useNavigate();
  const answered = useRef<unknown>(null);
  const thenPay = useRef(false);
  if (fetcher.formData) thenPay.current = fetcher.formData.get("then") === "pay";
  useEffect(() => {
    const answer = fetcher.data as { ok?: boolean } | undefined;
    if (fetcher.state !== "idle" || !answer || answered.current === answer) return;
    answered.current = answer;
    if (answer.ok && thenPay.current) navigate("/checkout/");
    else if (answer.ok) openCartPanel();
  }, [fetcher.state, fetcher.data, navigate]);
  const actions = useRef<HTMLDivElement>(null);
  const [boxInView, setBoxInView] = useState(false);
  // The sticky bar repeats the box's buttons: hidden while they are on screen above it.
  useEffect(() => {
    const el = actions.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setBoxInView(entry.isIntersecting), { rootMargin: "0px 0px -72px 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <fetcher.Form method="post" action="/cart" className="buy-box" id="buy">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="offerUuid" value={offer.uuid} />
      {/* Without JS the page comes back at the box, where the «Añadido» bar is. */}
      <input type="hidden" name="redirectTo" value={`${location.pathname}#buy`} />
      <EnhancedInput />
      {/* Said, not offered again: the box's own «Ir a pagar» is right below. */}
      {added && inCart && withPage ? (
        <p className="added-bar" role="status">
          <span>✓ {added.text}</span>
        </p>
      ) : null}
      <fieldset className="options">
        <legend>Elige una opción</legend>
        {offer.price_options.map((o) => {
          const max = maxTickets(o);
          return (
            <label key={o.uuid} className={`option${o.available <= 0 ? " option-soldout" : ""}`}>
              <input
                type="radio"
                name="priceOptionUuid"
                value={o.uuid}
                checked={selected === o.uuid}
                disabled={o.available <= 0}
                onChange={() => setSelected(o.uuid)}
                required
              />
              <span className="option-title">{o.title}</span>
              <span className="option-price">
                <PriceTag actual={o.actual_price} regular={o.regular_price} />
                <DiscountBadge actual={o.actual_price} regular={o.regular_price} />
              </span>
              {/* Scarcity is urgent (red); a per-customer limit is just information (grey). */}
              {o.available <= 0 ? (
                <small className="option-stock">Agotada</small>
              ) : o.available <= 5 ? (
                <small className="option-stock">{`¡Solo ${plural(o.available, "queda", "quedan")} ${o.available}!`}</small>
              ) : o.per_customer ? (
                <small className="option-limit">Máximo {max} por cliente</small>
              ) : (
                <small />
              )}
            </label>
          );
        })}
      </fieldset>
      {soldOut ? (
        <p className="soldout-note">Esta oferta está agotada.</p>
      ) : (
        <>
          {/* One field per option, each with that option's maximum: the chosen option's shows (CSS,
              by the checked radio), so without JavaScript too the maximum follows the choice. */}
          <div className="counters">
            {offer.price_options.map((o) => (
              <TicketCounter
                key={o.uuid}
                id={`tickets-${o.uuid}`}
                name={optionTicketsField(o.uuid)}
                defaultValue={inCart?.priceOptionUuid === o.uuid ? inCart.ticketsCount : 1}
                max={maxTickets(o)}
              />
            ))}
          </div>
          <div className="buy-actions" ref={actions}>
            {inCart ? (
              // In the cart already: paying comes first; the tickets can still be changed.
              <>
                <Link to="/checkout/" className="btn btn-block btn-large">
                  Ir a pagar
                </Link>
                <button type="submit" className="btn btn-block btn-secondary" disabled={adding}>
                  {adding ? "Actualizando…" : "Actualizar carrito"}
                </button>
              </>
            ) : (
              // First in the form, so Enter in the tickets field adds, as it always has.
              <>
                <button type="submit" className="btn btn-block btn-large" disabled={adding}>
                  {adding ? "Añadiendo…" : "Añadir al carrito"}
                </button>
                <button type="submit" name="then" value="pay" className="btn btn-block btn-secondary" disabled={adding}>
                  Ir a pagar
                </button>
              </>
            )}
          </div>
        </>
      )}
      {option && !soldOut ? (
        // Phones: the chosen option's price and the button stay at hand. The button belongs to this
        // form (form="buy"), so without JS it submits the option and tickets chosen above.
        <div className="buy-bar" aria-label="Comprar" role="group" hidden={boxInView || undefined}>
          <span className="buy-bar-price">
            <PriceTag actual={option.actual_price} regular={option.regular_price} />
            <DiscountBadge actual={option.actual_price} regular={option.regular_price} />
          </span>
          {inCart ? (
            <Link to="/checkout/" className="btn">
              Ir a pagar
            </Link>
          ) : (
            <button type="submit" form="buy" className="btn" disabled={adding}>
              {adding ? "Añadiendo…" : "Añadir al carrito"}
            </button>
          )}
        </div>
      ) : null}
    </fetcher.Form>
  );
}
