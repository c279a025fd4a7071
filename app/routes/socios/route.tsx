import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { requirePartner } from "#app/portal/partner.server";
import { seo } from "#app/document/seo";
import type { RouteHandle } from "#app/root";

export const meta: MetaFunction = () =>
  seo({ title: "Portal de socios", description: "Canjea cupones y gestiona tus ofertas.", noindex: true });

/** The partner's portal is a tool: no region, categories or shop footer around the till. */
export const handle: RouteHandle = { tool: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const me = await requirePartner(request);
  return data({ email: me.email }, { headers: { "Cache-Control": "private, no-store" } });
}

const TABS = [
  { to: "/socios", label: "Canjear cupón", end: true },
  { to: "/socios/ofertas", label: "Mis ofertas", end: false },
  { to: "/socios/ventas", label: "Ventas", end: false },
  { to: "/socios/codigos", label: "Códigos promocionales", end: false },
  { to: "/socios/liquidaciones", label: "Liquidaciones", end: false },
];

export default function PartnerPortal() {
  return (
    <div className="portal">
      <nav className="portal-tabs" aria-label="Portal de socios">
        {TABS.map((t) => (
          <NavLink key={t.to} to={t.to} end={t.end} prefetch="intent">
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
