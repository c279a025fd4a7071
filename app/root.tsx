import type { LinksFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CATEGORY_MENU } from "#rules/categories";
import { Suggestions } from "#app/components/suggestions";
import { PENDING_DELAY_MS, PENDING_MIN_MS } from "#rules/constants";
import { usePendingIndicator } from "#app/components/use-pending-indicator";
import { CartDropdown } from "#app/components/cart-dropdown";
import { ConsentBanner } from "#app/components/consent-banner";
import { FavoriteForm, FavoritesProvider } from "#app/components/favorite-button";
import { ClientNavigation } from "#app/components/client-navigation";
import { Footer } from "#app/components/footer";
import { BackIcon, HeartIcon, LoginIcon, LogoutIcon, UserIcon } from "#app/components/icons";
import { Logo } from "#app/components/logo";
import { RegionForm } from "#app/components/region-form";
import { ScrollRestoration } from "#app/components/scroll-restoration";
import { SearchButton } from "#app/components/search-dialog";
import { Toasts } from "#app/components/toasts";
import { useCompactHeader } from "#app/components/compact-header";
import type { ToastField } from "#app/state/session.server";
import { rootLoader } from "#app/state/root-data.server";
import styles from "./styles.css?url";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import { useNonce } from "#app/document/nonce";
import { neverRecordedMark } from "#app/document/never-recorded";
import { SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_DETAIL } from "#rules/service";

export const shouldRevalidate = skipAfterFailure;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable: «Añadir a la pantalla de inicio» (public/manifest.webmanifest).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export type RouteHandle = {
  /** Only the bare content, no header or footer (the /iframe widget). */
  bare?: boolean;
  /**
   * Ship no JavaScript at all: the page has nothing to hydrate. A function decides by the route's
   * loader data (an information page ships none; the 404 answered in its place runs the app).
   */
  noScripts?: boolean | ((data: unknown) => boolean);
  /** The same page for every anonymous visitor: shared caches may keep it (cache-control.server.ts). */
  publicCache?: boolean;
  /**
   * The page shows favourite hearts (offer cards, the offer's own): the layout renders the form
   * they submit, and leaves it out elsewhere (a form nothing can submit). A function decides from
   * the route's data.
   */
  favorites?: boolean | ((data: unknown) => boolean);
  /**
   * Tagged messages the page says at their place, whenever they come (a refused promo code, under
   * its field): no toast and no flash repeats them.
   */
  inlineMessages?: ToastField[];
  /** Tagged messages the page says in place only when they come with it (the offer's «Añadido» bar, drawn on the server). */
  inlineWithPage?: ToastField[];
};

export const loader = rootLoader;

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

type RootLoaderData = NonNullable<ReturnType<typeof useRootData>>;

function PendingSpinner() {
  const navigation = useNavigation();
  // Router pending threshold 1 s, 0 for the offer detail and the payment step; once shown it stays
  // at least 0.5 s (spec section 9).
  const to = navigation.location?.pathname ?? "";
  const immediate = /^\/ofertas\/[0-9a-f-]{36}\/?$/i.test(to) || /^\/order\/?$/.test(to);
  const shown = usePendingIndicator(navigation.state !== "idle", { delay: immediate ? 0 : PENDING_DELAY_MS, minDuration: PENDING_MIN_MS });
  // A native indeterminate <progress> (no value): the element the progressbar role stands for.
  return (
    <progress className={`pending-bar${shown ? " is-pending" : ""}`} aria-hidden={!shown} aria-label="Cargando" data-testid="pending-bar" />
  );
}

/** On phones the category row scrolls: bring the current category into view, without moving the page. */
function useActiveCategoryInView(pathname: string) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const list = nav.current;
    const active = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !active) return;
    const offset = active.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
    list.scrollTo({ left: Math.max(0, offset - (list.clientWidth - active.offsetWidth) / 2) });
  }, [pathname]);
  return nav;
}

/** The logged-in person: who they are, and a logout that works as a plain form post. */
function UserMenu({ email }: { email: string }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  // From the payment step, logout lands on /checkout in place of the payment page (spec section 4).
  const onOrder = location.pathname === "/order" || location.pathname === "/order/";
  return (
    <>
      <Link to="/cuenta" className="header-button header-user" title={email}>
        <UserIcon />
        <span className="header-button-label header-user-email" aria-hidden="true">
          {email}
        </span>
        <span className="visually-hidden">Mi cuenta (sesión iniciada como {email})</span>
      </Link>
      <Form method="post" action="/logout" replace={onOrder} className="logout-form">
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className="header-button">
          <LogoutIcon />
          <span className="header-button-label">Salir</span>
        </button>
      </Form>
    </>
  );
}

function Header({ data }: { data: RootLoaderData }) {
  const location = useLocation();
  const isHome = location.pathname === "/";
  const categoryNav = useActiveCategoryInView(location.pathname);
  const header = useCompactHeader();
  return (
    <header className="site-header" ref={header}>
      {/* Inside the banner landmark: shown, it is page content too (axe "region"). */}
      <PendingSpinner />
      <div className="header-row">
        {!isHome ? (
          <a
            href="/"
            className="back-arrow"
            aria-label="Volver"
            onClick={(e) => {
              if (window.history.length > 1) {
                e.preventDefault();
                window.history.back();
              }
            }}
          >
            <BackIcon />
          </a>
        ) : null}
        <Logo />
        <p className="tagline">
          <span className="tagline-long">Ofertas irresistibles para ti en {data.region.label}</span>
          <span className="tagline-short">Ofertas en {data.region.label}</span>
        </p>
        <nav className="header-actions" aria-label="Tu cuenta">
          <SearchButton />
          <Link
            to="/favorite"
            className="header-button"
            aria-label={data.favoritesCount ? `Favoritos, ${data.favoritesCount}` : "Favoritos"}
          >
            <HeartIcon />
            {/* A badge is news: none at 0. */}
            {data.favoritesCount ? <span className="count-badge">{data.favoritesCount}</span> : null}
          </Link>
          <CartDropdown
            lines={data.cart.lines}
            count={data.cart.count}
            subtotalCents={data.cart.subtotalCents}
            totalCents={data.cart.totalCents}
          />
          {data.viewer ? (
            <UserMenu email={data.viewer.email} />
          ) : (
            <Link to={`/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`} className="header-button">
              <LoginIcon />
              <span className="header-button-label">Entrar</span>
            </Link>
          )}
        </nav>
      </div>
      <div className="header-row header-row-secondary">
        <RegionForm region={data.region} />
        <nav aria-label="Categorías" className="category-nav" ref={categoryNav}>
          <ul>
            {CATEGORY_MENU.map((c) => (
              <li key={c.id}>
                <Link to={c.href} aria-current={location.pathname === c.href ? "page" : undefined} prefetch="intent">
                  {c.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const matches = useMatches();
  const location = useLocation();
  const handles = matches.map((m) => (m.handle ?? {}) as RouteHandle);
  const bare = data?.bare || handles.some((h) => h.bare);
  const noScripts = handles.some((h, i) => (typeof h.noScripts === "function" ? h.noScripts(matches[i].data) : h.noScripts));
  const favorites = matches.some((m) => {
    const shows = (m.handle as RouteHandle | undefined)?.favorites;
    return typeof shows === "function" ? shows(m.data) : shows === true;
  });
  // None on a shared page, whose policy allows its scripts by hash (entry.server.tsx).
  const nonce = useNonce() || undefined;
  // Set after hydration, not by an inline script: if the bundle fails, the no-JS controls stay.
  useEffect(() => {
    document.documentElement.classList.add("js");
  }, []);
  return (
    // .no-scripts: the page ships no JavaScript, so the region's «Cambiar» button shows at once
    // instead of after the 8 s a page gives its app to start (styles.css).
    <html lang="es" className={noScripts ? "no-scripts" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#e4572e" />
        <Meta />
        <Links />
      </head>
      <body className={bare ? "bare" : undefined}>
        {bare || !data ? (
          children
        ) : (
          <>
            <a href="#main" className="skip-link">
              Saltar al contenido
            </a>
            {!data.consentAsked && !location.pathname.startsWith("/consent") ? <ConsentBanner /> : null}
            {data.sandboxNotice ? <SandboxNotice /> : null}
            <Header data={data} />
            <Toasts
              messages={data.toasts}
              inline={handles.flatMap((h) => h.inlineMessages ?? [])}
              withPage={handles.flatMap((h) => h.inlineWithPage ?? [])}
            />
            <FavoritesProvider>
              <main id="main" className="site-main" {...neverRecordedMark(location.pathname)}>
                {children}
              </main>
            </FavoritesProvider>
            {favorites ? <FavoriteForm /> : null}
            {noScripts ? null : <ClientNavigation />}
            {data.contacts ? <Footer {...data.contacts} /> : null}
          </>
        )}
        {noScripts ? null : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

/** A staging deployment on the payment sandbox: above the header, in the flow, on every page. */
function SandboxNotice() {
  return (
    <aside className="sandbox-notice" aria-label="Aviso" data-testid="sandbox-notice">
      <p>Modo de pruebas: no se cobra nada</p>
    </aside>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // The API or its database cannot answer right now (api-client: unavailable()).
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  // A request we refused (a form we could not read…) carries its own Spanish reason.
  const refused =
    isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && !notFound && typeof error.data === "string"
      ? error.data
      : null;
  return (
    <div className="error-page">
      {notFound ? (
        <>
          <h1>404</h1>
          <p>Lo sentimos, no pudimos encontrar la página que buscas.</p>
        </>
      ) : unavailable ? (
        <>
          <h1>{SERVICE_UNAVAILABLE}</h1>
          <p>{SERVICE_UNAVAILABLE_DETAIL}</p>
        </>
      ) : refused ? (
        <>
          <h1>No hemos podido atender la petición</h1>
          <p>{refused}</p>
        </>
      ) : (
        <>
          <h1>Algo ha salido mal</h1>
          <p>Ha ocurrido un error inesperado. Inténtalo de nuevo en unos minutos.</p>
          {/* Details only in development; production never shows a stack trace. */}
          {import.meta.env.DEV && error instanceof Error ? <pre className="error-stack">{error.stack}</pre> : null}
        </>
      )}
      <p>
        <a href="/" className="btn">
          Ir a la página principal
        </a>
      </p>
      {notFound ? <Suggestions popular={[]} /> : null}
    </div>
  );
}
