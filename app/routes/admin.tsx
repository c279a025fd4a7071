import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { requireStaff } from "#app/lib/partner.server";
import { seo } from "#app/lib/seo";

export const meta: MetaFunction = () => seo({ title: "Administración", description: "Moderación y gestión de ofertas.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  return data({}, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Admin() {
  return (
    <div className="portal">
      <nav className="portal-tabs" aria-label="Administración">
        <NavLink to="/admin" end>
          Ofertas pendientes
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
