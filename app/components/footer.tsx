import { Link, useLocation } from "@remix-run/react";

/** Every route that is not hidden from the menu (spec section 2), in menu order. */
export const FOOTER_LINKS = [
  { to: "/ofertas/", label: "Ofertas" },
  { to: "/favorite", label: "Favoritos" },
  { to: "/contacts", label: "Nuestros contactos" },
  { to: "/agreement", label: "Acuerdo De Usuario" },
  { to: "/marketing-agreement", label: "Consentimiento comercial" },
  { to: "/privacy-policy", label: "Política de privacidad" },
  { to: "/cookie-policy", label: "Política de cookies" },
];

export function Footer({ supportEmail, businessEmail }: { supportEmail: string; businessEmail: string }) {
  const location = useLocation();
  const here = location.pathname === "/consent" ? "/" : location.pathname + location.search;
  return (
    <footer className="site-footer">
      <nav aria-label="Pie de página">
        <ul className="footer-links">
          {FOOTER_LINKS.map((link, i) => (
            // Each link a little fainter than the one before (spec section 2), never below legible contrast.
            <li key={link.to} style={{ opacity: Math.max(0.62, 1 - i * 0.06) }}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
          <li>
            <Link to={`/consent?redirectTo=${encodeURIComponent(here)}`} rel="nofollow">
              Configurar cookies
            </Link>
          </li>
        </ul>
      </nav>
      <div className="footer-contacts">
        <p>
          Atención al cliente: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
        </p>
        <p>
          ¿Quieres publicar tus ofertas? <Link to="/empresas">Publica tu oferta</Link> o escríbenos a{" "}
          <a href={`mailto:${businessEmail}`}>{businessEmail}</a>
        </p>
        <p className="footer-small">© {new Date().getFullYear()} Ofertas Irresistibles S.L. · Precios con IVA incluido</p>
      </div>
    </footer>
  );
}
