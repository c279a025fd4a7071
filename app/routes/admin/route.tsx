import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { requireStaff } from "#app/portal/partner.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Administración", description: "Moderación y gestión de ofertas.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  return data({}, { headers: { "Cache-Control": "private, no-store" } });
}

const SECTIONS = [
  { to: "/admin", label: "Ofertas pendientes" },
  { to: "/admin/codigos", label: "Códigos promocionales" },
  { to: "/admin/organizaciones", label: "Organizaciones" },
  { to: "/admin/usuarios", label: "Usuarios" },
  { to: "/admin/reembolsos", label: "Reembolsos" },
  { to: "/admin/liquidaciones", label: "Liquidaciones" },
  { to: "/admin/solicitudes", label: "Solicitudes de socios" },
];

export default function Admin() {
  return (
    <div className="portal">
      <nav className="portal-tabs" aria-label="Administración">
        {SECTIONS.map((s) => (
          <NavLink key={s.to} to={s.to} end={s.to === "/admin"} prefetch="intent">
            {s.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
