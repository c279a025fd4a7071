import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { orNotFound, partnerApi, powersOf, requirePartner } from "#app/portal/partner.server";
import type { PartnerAction } from "#rules/partner-roles";
import { seo } from "#app/document/seo";
import type { RouteHandle } from "#app/root";

export const meta: MetaFunction = () =>
  seo({ title: "Portal de socios", description: "Canjea cupones y gestiona tus ofertas.", noindex: true });

/** The partner's portal is a tool: no region, categories or shop footer around the till. */
export const handle: RouteHandle = { tool: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const me = await requirePartner(request);
  const { results } = await orNotFound(partnerApi(request).memberships());
  return data({ email: me.email, powers: powersOf(results) }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Each tab shows only to a role that may use it (rules/partner-roles.ts); the API refuses the rest anyway. */
const TABS: { to: string; label: string; end: boolean; needs: PartnerAction }[] = [
  { to: "/socios", label: "Canjear cupón", end: true, needs: "till.redeem" },
  { to: "/socios/ofertas", label: "Mis ofertas", end: false, needs: "offers.read" },
  { to: "/socios/ventas", label: "Ventas", end: false, needs: "sales.read" },
  { to: "/socios/codigos", label: "Códigos promocionales", end: false, needs: "promo-codes.read" },
  { to: "/socios/liquidaciones", label: "Liquidaciones", end: false, needs: "statements.read" },
  { to: "/socios/equipo", label: "Equipo", end: false, needs: "members.read" },
];

export default function PartnerPortal() {
  const { powers } = useLoaderData<typeof loader>();
  // A member of no organisation yet sees every tab, each with its empty state, as before roles.
  const none = !Object.values(powers).some(Boolean);
  return (
    <div className="portal">
      <nav className="portal-tabs" aria-label="Portal de socios">
        {TABS.filter((t) => none || powers[t.needs]).map((t) => (
          <NavLink key={t.to} to={t.to} end={t.end} prefetch="intent">
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
