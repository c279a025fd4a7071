import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form } from "@remix-run/react";
import { SORT_LABELS, SORTS, type Sort } from "#rules/listing-order";

/** What the form shows back: the order, the range and the place as the URL had them. */
export type ListingOrderView = {
  sort: Sort;
  priceMin: string;
  priceMax: string;
  near: string;
  place: { label: string } | null;
  problem: string | null;
  position: { lat: string; lng: string } | null;
};

/**
 * «Ordenar», the price range and «Cerca de mí» for a listing: a GET form, so the page is a plain
 * URL that works without JavaScript. With it, «Usar mi ubicación» asks the browser for the
 * position (the browser asks the person) and sends it rounded to about 100 m; without it, or when
 * refused, a postcode or province does the same.
 */
export function ListingControls({
  order,
  keep = {},
  children,
}: {
  order: ListingOrderView;
  /** Parameters of the page the form must carry over (a search, a region). */
  keep?: Record<string, string>;
  children?: ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [located, setLocated] = useState<{ lat: string; lng: string } | null>(null);
  const position = located ?? order.position;
  const [canLocate, setCanLocate] = useState(false);
  const [locating, setLocating] = useState<string | null>(null);
  // After hydration: only a browser with JavaScript and geolocation gets the button.
  useEffect(() => setCanLocate("geolocation" in navigator), []);
  useEffect(() => {
    if (located) form.current?.requestSubmit();
  }, [located]);

  const locate = () => {
    setLocating("Buscando tu ubicación…");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(null);
        const fields = form.current?.elements;
        const sortField = fields?.namedItem("sort");
        const nearField = fields?.namedItem("near");
        if (sortField instanceof HTMLSelectElement) sortField.value = "nearby";
        // The position, not a place typed before, is what the person now asks for.
        if (nearField instanceof HTMLInputElement) nearField.value = "";
        setLocated({ lat: position.coords.latitude.toFixed(3), lng: position.coords.longitude.toFixed(3) });
      },
      () => setLocating("No hemos podido usar tu ubicación. Escribe tu código postal o provincia."),
      { timeout: 10_000, maximumAge: 600_000 },
    );
  };

  return (
    <Form method="get" className="filters listing-controls" ref={form} aria-label="Ordenar y filtrar">
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      {position ? (
        <>
          <input type="hidden" name="lat" value={position.lat} />
          <input type="hidden" name="lng" value={position.lng} />
        </>
      ) : null}
      {children}
      <div className="field">
        <label htmlFor="listing-sort">Ordenar</label>
        <select id="listing-sort" name="sort" defaultValue={order.sort}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="price-range">
        <legend>Precio (€)</legend>
        <label>
          <span>Desde</span>
          <input type="text" name="price_min" inputMode="numeric" pattern="[0-9]*" size={5} defaultValue={order.priceMin} placeholder="0" />
        </label>
        <label>
          <span>Hasta</span>
          <input
            type="text"
            name="price_max"
            inputMode="numeric"
            pattern="[0-9]*"
            size={5}
            defaultValue={order.priceMax}
            placeholder="Sin límite"
          />
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="listing-near">Código postal o provincia</label>
        <input
          id="listing-near"
          name="near"
          type="text"
          autoComplete="postal-code"
          size={12}
          defaultValue={order.near}
          aria-describedby="listing-near-hint"
        />
        <span id="listing-near-hint" className="field-hint">
          Para «Cerca de mí»
        </span>
      </div>
      {canLocate ? (
        <button type="button" className="btn btn-secondary" onClick={locate}>
          Usar mi ubicación
        </button>
      ) : null}
      <button type="submit" className="btn">
        Aplicar
      </button>
      <p className={order.problem ? "listing-controls-status field-error" : "listing-controls-status"} role="status">
        {order.problem ?? locating ?? (order.sort === "nearby" && order.place ? `Distancias desde ${order.place.label}.` : "")}
      </p>
    </Form>
  );
}
