import { Link, useFetcher, useFetchers, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { formatCents } from "#rules/prices";
import { ticketsInWords } from "#rules/text";
import { CartIcon, TrashIcon } from "./icons";
import { EnhancedInput } from "#app/components/enhanced-input";

export type CartLine = {
  offerUuid: string;
  title: string;
  optionTitle: string;
  image: { url: string; width: number; height: number } | null;
  ticketsCount: number;
  lineCents: number;
};

function RemoveButton({ offerUuid, title }: { offerUuid: string; title: string }) {
  const fetcher = useFetcher();
  const location = useLocation();
  return (
    <fetcher.Form method="post" action="/cart">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="offerUuid" value={offerUuid} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <EnhancedInput />
      <button type="submit" className="icon-button" aria-label={`Quitar ${title} del carrito`}>
        <TrashIcon />
      </button>
    </fetcher.Form>
  );
}

/** Offers being removed right now vanish at once (optimistic UI), before the server answers. */
export function usePendingRemovals(): Set<string> {
  const removing = new Set<string>();
  for (const f of useFetchers()) {
    if (f.formData?.get("intent") === "remove") removing.add(String(f.formData.get("offerUuid")));
    if (f.formData?.get("intent") === "clear") removing.add("*");
  }
  return removing;
}

const OPEN_EVENT = "cart-panel:open";

/** Opens the header's cart panel after an add (the toast says «Añadido»), with «Ir a pagar» focused. */
export function openCartPanel() {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

export function CartPanel({
  lines,
  subtotalCents,
  totalCents,
  added = false,
  onClose,
}: {
  lines: CartLine[];
  subtotalCents: number;
  totalCents: number;
  added?: boolean;
  onClose?: () => void;
}) {
  const removing = usePendingRemovals();
  const visible = removing.has("*") ? [] : lines.filter((l) => !removing.has(l.offerUuid));
  const pay = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (!added) return;
    // A frame later: the offer page's buttons change in the same commit (the offer is in the cart now).
    const frame = requestAnimationFrame(() => pay.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [added]);
  return (
    <div className="cart-panel-inner">
      <div className="cart-panel-head">
        <h2 className="cart-title">Tu carrito</h2>
        {onClose ? (
          <button type="button" className="icon-button cart-close" aria-label="Cerrar el carrito" onClick={onClose}>
            ×
          </button>
        ) : null}
      </div>
      {visible.length === 0 ? (
        <p className="muted">Tu carrito de compras está vacío</p>
      ) : (
        <ul className="cart-lines">
          {visible.map((line) => (
            <li key={line.offerUuid} className="cart-line">
              {line.image ? <img src={line.image.url} alt="" width={64} height={40} loading="lazy" /> : null}
              <div>
                <Link to={`/ofertas/${line.offerUuid}/`} className="cart-line-title">
                  {line.title}
                </Link>
                <small className="cart-line-meta">
                  <span>{line.optionTitle}</span> <span className="nowrap">· {ticketsInWords(line.ticketsCount)}</span>
                </small>
                <strong>{formatCents(line.lineCents)}</strong>
              </div>
              <RemoveButton offerUuid={line.offerUuid} title={line.title} />
            </li>
          ))}
        </ul>
      )}
      {visible.length ? (
        <div className="cart-totals">
          {visible.length === lines.length && totalCents < subtotalCents ? (
            <>
              <p className="summary-row">
                <span>Subtotal</span>
                <span>{formatCents(subtotalCents)}</span>
              </p>
              <p className="summary-row">
                <span>Descuento</span>
                <span>−{formatCents(subtotalCents - totalCents)}</span>
              </p>
            </>
          ) : null}
          <p className="summary-row summary-total">
            <span>Total</span>
            <span data-testid="cart-panel-total">
              {formatCents(visible.length === lines.length ? totalCents : visible.reduce((s, l) => s + l.lineCents, 0))}
            </span>
          </p>
        </div>
      ) : null}
      {/* The one way to pay from here; after an add the toast says «Añadido» and this is focused. */}
      <Link to="/checkout/" className={`btn btn-block${visible.length ? "" : " btn-disabled"}`} aria-disabled={!visible.length} ref={pay}>
        Ir a pagar
      </Link>
    </div>
  );
}

/** Without JS the cart button is a link to /checkout; with JS it opens this panel. */
export function CartDropdown({
  lines,
  count,
  subtotalCents,
  totalCents,
}: {
  lines: CartLine[];
  count: number;
  subtotalCents: number;
  totalCents: number;
}) {
  // Open on the page where it was opened: any navigation closes it in the render that shows the
  // new page (an effect closed it a frame later, over the page it had led to).
  const location = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const open = openOn === location.key;
  const button = useRef<HTMLAnchorElement>(null);
  const close = () => {
    setOpenOn(null);
    button.current?.focus();
  };

  useEffect(() => {
    const onAdded = () => {
      setAdded(true);
      setOpenOn(location.key);
    };
    window.addEventListener(OPEN_EVENT, onAdded);
    return () => window.removeEventListener(OPEN_EVENT, onAdded);
  }, [location.key]);
  useEffect(() => {
    if (!open) setAdded(false);
  }, [open]);
  const wrapper = useRef<HTMLDivElement>(null);
  const removing = usePendingRemovals();
  const shownCount = removing.has("*") ? 0 : count - lines.filter((l) => removing.has(l.offerUuid)).reduce((n, l) => n + l.ticketsCount, 0);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpenOn(null);
    const onClick = (e: MouseEvent) => !wrapper.current?.contains(e.target as Node) && setOpenOn(null);
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <div className="cart-dropdown" ref={wrapper}>
      <a
        ref={button}
        href="/checkout/"
        className="header-button"
        aria-expanded={open}
        aria-controls="cart-panel"
        onClick={(e) => {
          e.preventDefault();
          setOpenOn((on) => (on === location.key ? null : location.key));
        }}
      >
        <CartIcon />
        <span className="visually-hidden">{shownCount ? `Carrito, ${ticketsInWords(shownCount)}` : "Carrito"}</span>
        {shownCount ? (
          <span className="count-badge" aria-hidden="true">
            {shownCount}
          </span>
        ) : null}
      </a>
      {open ? (
        <div id="cart-panel" className="cart-panel">
          <CartPanel lines={lines} subtotalCents={subtotalCents} totalCents={totalCents} added={added} onClose={close} />
        </div>
      ) : null}
    </div>
  );
}
