import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ApiError, authApi } from "#app/lib/api.server";
import { viewer } from "#app/lib/auth.server";
import { getSession } from "#app/lib/session.server";
import { seo } from "#app/lib/seo";

export const meta: MetaFunction = () => seo({ title: "Mi cuenta", description: "Tu cuenta de ofertas.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  if (!viewer(await getSession(request))) throw redirect("/login?redirectTo=%2Fcuenta");
  try {
    const me = await authApi.me(request);
    return data({ me }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect("/login?redirectTo=%2Fcuenta");
    throw error;
  }
}

export default function Account() {
  const { me } = useLoaderData<typeof loader>();
  return (
    <section className="narrow account-page">
      <h1>Mi cuenta</h1>
      <section aria-labelledby="account-email" className="account-section">
        <h2 id="account-email">Correo electrónico</h2>
        <p>
          <strong>{me.email}</strong>
        </p>
      </section>
      <nav aria-label="Tu actividad" className="account-links">
        <Link to="/order/history" className="btn btn-secondary">
          Mis pedidos
        </Link>
        <Link to="/favorite" className="btn btn-secondary">
          Favoritos
        </Link>
      </nav>
      <Form method="post" action="/logout">
        <input type="hidden" name="redirectTo" value="/" />
        <button type="submit" className="btn btn-secondary">
          Cerrar sesión
        </button>
      </Form>
    </section>
  );
}
