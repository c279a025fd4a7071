import { Form, useLocation } from "@remix-run/react";
import type { ConsentCategory, ConsentChoice } from "#rules/consent";

/**
 * Labels and one-line summaries. Kept here, not in rules/consent.ts: the banner is in every page's
 * JavaScript, and that module's rules (cookies per tool, replay exclusions) are only for the server
 * and the consented tools' script.
 */
export const CONSENT_CATEGORIES: { id: ConsentCategory; label: string; summary: string }[] = [
  { id: "necessary", label: "Necesarias", summary: "Carrito, región, esta elección, el pago y el antispam." },
  { id: "analytics", label: "Analítica", summary: "Amplitude (UE): qué se visita y grabaciones con lo que escribes oculto." },
  { id: "marketing", label: "Marketing", summary: "Google Tag Manager y el mapa interactivo de cada oferta." },
];

/** The per-category switches; «Necesarias» is shown switched on and cannot be turned off. */
function CategorySwitches({ choice, details }: { choice: ConsentChoice | null; details?: Record<ConsentCategory, string> }) {
  return (
    <fieldset className="consent-categories">
      <legend className="visually-hidden">Categorías de cookies</legend>
      {CONSENT_CATEGORIES.map((c) => (
        <div key={c.id} className="consent-category">
          <label className="consent-switch">
            <input
              type="checkbox"
              role="switch"
              name={c.id === "necessary" ? undefined : c.id}
              defaultChecked={c.id === "necessary" ? true : Boolean(choice?.[c.id])}
              disabled={c.id === "necessary"}
              aria-describedby={`consent-${c.id}-desc`}
            />
            <span>{c.label}</span>
            {c.id === "necessary" ? <small className="muted"> (siempre activas)</small> : null}
          </label>
          <p id={`consent-${c.id}-desc`} className="consent-category-desc">
            {details?.[c.id] ?? c.summary}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

/** «Rechazar todo» and «Aceptar todo»: the same size, the same style, side by side. */
function AllOrNothing() {
  return (
    <div className="consent-actions">
      <button type="submit" name="intent" value="reject-all" className="btn">
        Rechazar todo
      </button>
      <button type="submit" name="intent" value="accept-all" className="btn">
        Aceptar todo
      </button>
    </div>
  );
}

/**
 * The first-visit banner. One plain form, and with JavaScript too the choice reloads the page
 * (reloadDocument): the server adds the consented tools' script to a document only when their
 * category is accepted, so no page's JavaScript has to carry a way to start them in place.
 * «Configurar» is a <details>, so the switches open without JavaScript too; it opens below the
 * row of three buttons, which stay where they were. Rendered first in the page (after the skip
 * link), so the keyboard reaches it before the header; it still shows at the bottom.
 */
export function ConsentBanner() {
  const location = useLocation();
  return (
    <section className="consent" aria-labelledby="consent-title">
      <h2 id="consent-title" className="consent-title">
        Tu privacidad
      </h2>
      <p>
        Usamos cookies necesarias y, solo si lo aceptas, de analítica y marketing. <a href="/cookie-policy">Política de cookies</a>
      </p>
      <Form method="post" action="/consent" reloadDocument className="consent-form">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <details className="consent-settings">
          <summary className="btn btn-secondary">Configurar</summary>
          <CategorySwitches choice={null} />
          <button type="submit" name="intent" value="save" className="btn btn-secondary">
            Guardar mi elección
          </button>
        </details>
        <AllOrNothing />
      </Form>
    </section>
  );
}

/** The «Configurar cookies» page: the same choice, at any time, with the current one shown. */
export function ConsentSettings({
  choice,
  redirectTo,
  details,
}: {
  choice: ConsentChoice | null;
  redirectTo: string;
  details: Record<ConsentCategory, string>;
}) {
  return (
    <Form method="post" action="/consent" reloadDocument className="consent-page-form">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <CategorySwitches choice={choice} details={details} />
      <div className="consent-page-actions">
        <button type="submit" name="intent" value="save" className="btn btn-secondary">
          Guardar mi elección
        </button>
        <AllOrNothing />
      </div>
    </Form>
  );
}
