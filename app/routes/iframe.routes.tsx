import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CATEGORY_IDS, CATEGORY_LABELS } from "#lib/categories";
import { requestOrigin } from "#app/lib/origin.server";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { bare: true, noScripts: true };
export const meta: MetaFunction = () => [{ title: "Widget de ofertas para tu web" }];

function embedCode(origin: string, query = ""): string {
  return `<iframe src="${origin}/iframe/${query}" title="Ofertas" width="100%" height="430" style="border:0" loading="lazy"></iframe>`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = requestOrigin(request);
  const variants = [
    { label: "Las 3 ofertas recomendadas de España", query: "" },
    { label: "Ofertas en Madrid", query: "?region=Madrid" },
    { label: "Restaurantes en Barcelona", query: "?region=Barcelona&category=restaurants" },
    ...CATEGORY_IDS.map((id) => ({ label: `Categoría: ${CATEGORY_LABELS[id]}`, query: `?category=${id}` })),
  ];
  return { variants: variants.map((v) => ({ ...v, code: embedCode(origin, v.query) })), origin };
}

export default function WidgetRoutes() {
  const { variants } = useLoaderData<typeof loader>();
  return (
    <main className="widget-docs">
      <h1>Widget de ofertas para tu web</h1>
      <p>
        Muestra 3 ofertas en tu página con una sola línea de HTML. Elige región (<code>region</code>, cualquier
        provincia) y categoría (<code>category</code>). Cada oferta se abre en una pestaña nueva. No carga
        JavaScript ni cookies.
      </p>
      {variants.map((v) => (
        <section key={v.query || "default"}>
          <h2>{v.label}</h2>
          <pre>
            <code>{v.code}</code>
          </pre>
        </section>
      ))}
    </main>
  );
}
