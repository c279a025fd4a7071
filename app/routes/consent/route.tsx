import { redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { makeChoice, withdrawn } from "#rules/consent";
import { formatDate } from "#rules/dates";
import { ConsentFormSchema, grantedBy } from "./schema";
import { ConsentSettings } from "#app/components/consent-banner";
import { consentHeaders, getConsent } from "#app/state/consent.server";
import { backTo, safeRedirect } from "#app/forms/redirect";
import { finish } from "#app/forms/respond.server";
import { seo } from "#app/document/seo";
import { readForm } from "#app/forms/form.server";

/** What each category covers, in full: on this page only, not in every page's JavaScript. */
const DETAILS = {
  necessary:
    "Hacen que la tienda funcione: tu carrito, tu región, esta elección y, cuando pagas o te registras, el botón de pago de PayPal y la comprobación antispam de Cloudflare. Siempre activas.",
  analytics:
    "Nos dicen qué páginas y ofertas se ven y dónde se atasca una compra (Amplitude, servidores en la UE), y graban de forma anónima cómo se usa la web, con todo lo que escribes oculto. Nunca en el pago ni en tu cuenta.",
  marketing:
    "Google Tag Manager y las herramientas de publicidad que carga, y el mapa interactivo de un proveedor externo en cada oferta. Sin ellas ves la dirección, un mapa servido por nosotros y un enlace para llegar.",
};

export const meta: MetaFunction = () => seo({ title: "Configurar cookies", description: "Elige qué cookies aceptas.", noindex: true });

/** «Configurar cookies» (the footer link): the choice can be changed at any time. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const choice = await getConsent(request);
  return {
    choice,
    chosenOn: choice ? formatDate(choice.date) : null,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "/"),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const parsed = ConsentFormSchema.safeParse(Object.fromEntries(formData));
  const to = backTo(request, formData);
  if (!parsed.success) {
    return finish(request, formData, { to, toast: { type: "error", text: "No hemos entendido tu elección. Vuelve a intentarlo." } });
  }
  // A choice under an older policy version reads as none, but its tools may have left cookies.
  const stale = (await getConsent(request)) === null && /(^|;\s*)ofertas_consent=/.test(request.headers.get("Cookie") ?? "");
  const before = stale ? makeChoice({ analytics: true, marketing: true }) : await getConsent(request);
  const after = makeChoice(grantedBy(parsed.data));
  const headers = await consentHeaders(request, before, after);
  // The consent forms post as documents (reloadDocument), so the next page is a full load: the
  // tools just accepted start from the script tag the server adds, and a withdrawn tool that was
  // running keeps none of its code in memory.
  if (withdrawn(before, after).length) {
    headers.set("Location", to);
    return redirectDocument(to, { status: 303, headers });
  }
  return finish(request, formData, { to, headers, toast: { type: "success", text: "Hemos guardado tu elección de cookies." } });
}

export default function ConsentPage() {
  const { choice, chosenOn, redirectTo } = useLoaderData<typeof loader>();
  return (
    <section className="narrow">
      <h1>Configurar cookies</h1>
      <p>
        Elige qué cookies aceptas. Las necesarias hacen que la tienda funcione; las demás solo se activan si las aceptas, y al retirarlas
        borramos las que hayan creado. <Link to="/cookie-policy">Política de cookies</Link>
      </p>
      <p className="muted" data-testid="consent-status">
        {choice
          ? `Tu elección del ${chosenOn}: analítica ${choice.analytics ? "aceptada" : "rechazada"}, marketing ${choice.marketing ? "aceptado" : "rechazado"}.`
          : "Todavía no has elegido: hasta que lo hagas solo usamos las cookies necesarias."}
      </p>
      <ConsentSettings choice={choice} redirectTo={redirectTo} details={DETAILS} />
    </section>
  );
}
