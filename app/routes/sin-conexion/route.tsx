import { redirectDocument, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Logo } from "#app/components/logo";
import { seo } from "#app/document/seo";
import { OFFLINE_PAGE } from "#app/offline/keep";
import type { RouteHandle } from "#app/root";

/**
 * What the offline worker (app/offline/service-worker.ts) shows in place of a page it cannot
 * fetch: the same for everyone, no header (it holds nobody's cart or login) and no JavaScript. The
 * worker keeps a copy from its install and writes in the purchases kept on the device
 * (app/offline/keep.ts, offlinePageWith).
 */
export const handle: RouteHandle = { bare: true, noScripts: true, publicCache: true };

export const meta: MetaFunction = () => seo({ title: "Sin conexión", description: "No hay conexión a internet.", noindex: true });

export const headers: HeadersFunction = () => ({ "Cache-Control": "public, max-age=0, s-maxage=3600" });

/**
 * `?recargar=1`: a redirect that makes the app load this page as a document. The worker keeps the
 * single-fetch answer of this address and gives it to a client-side navigation made offline.
 */
export function loader({ request }: LoaderFunctionArgs) {
  if (new URL(request.url).searchParams.has("recargar")) throw redirectDocument(OFFLINE_PAGE);
  return null;
}

export default function Offline() {
  return (
    <main id="main" className="offline-page">
      <p className="offline-logo">
        <Logo />
      </p>
      <h1>Sin conexión</h1>
      <p>No podemos abrir esta página: tu dispositivo no tiene conexión a internet ahora mismo.</p>
      <p>Los cupones que ya abriste en este dispositivo se ven también sin conexión, con su código QR y su PDF.</p>
      <p>
        {/* The worker points this at the newest purchase kept here; data-kept-… go first (keep.ts). */}
        <a data-kept-link="" href="/order/history" className="btn">
          Mis cupones
        </a>
      </p>
      <p data-kept-none="" className="muted">
        Aún no has abierto tus cupones en este dispositivo. Ábrelos una vez con conexión, con el botón «Ver mis cupones» del correo de tu
        compra, y estarán aquí también sin ella.
      </p>
      <ul data-kept-list="" hidden className="kept-list" aria-label="Cupones guardados en este dispositivo"></ul>
      <p>
        <a href="/">Ir a la página principal</a>
      </p>
    </main>
  );
}
