import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CATEGORY_IDS, CATEGORY_LABELS } from "#rules/categories";
import { requestOrigin } from "#app/document/origin.server";
import type { RouteHandle } from "#app/root";

/** Bare, but hydrated: the copy buttons are an enhancement (the code is plain selectable text). */
export const handle: RouteHandle = { bare: true };
export const meta: MetaFunction = () => [{ title: "Widget de ofertas para tu web" }];

/** One attribute per line, so no line is long enough to wrap inside a word. */
function embedCode(origin: string, query = ""): string {
  return [
    `<iframe src="${origin}/iframe/${query}"`,
    `  title="Ofertas" height="430"`,
    `  style="width:100%;border:0" loading="lazy"></iframe>`,
  ].join("\n");
}

function scriptCode(origin: string, query = ""): string {
  const params = new URLSearchParams(query);
  // Like the iframe code: one attribute per line, never a break inside a word.
  const data = [...params].map(([k, v]) => `  data-${k}="${v}"`);
  return data.length
    ? [`<script src="${origin}/widget.js"`, ...data, `  async></script>`].join("\n")
    : `<script src="${origin}/widget.js" async></script>`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = requestOrigin(request);
  const variants = [
    { label: "Las 3 ofertas recomendadas de España", query: "" },
    { label: "Ofertas en Madrid", query: "?region=Madrid" },
    { label: "Restaurantes en Barcelona", query: "?region=Barcelona&category=restaurants" },
    ...CATEGORY_IDS.map((id) => ({ label: `Categoría: ${CATEGORY_LABELS[id]}`, query: `?category=${id}` })),
  ];
  return {
    variants: variants.map((v) => ({
      ...v,
      code: embedCode(origin, v.query),
      script: scriptCode(origin, v.query),
      src: `/iframe/${v.query}`,
    })),
    origin,
  };
}

/** Rendered only once React runs; without JS the code beside it stays ordinary selectable text. */
function CopyButton({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  if (!useHydrated()) return null;
  return (
    <button
      type="button"
      className="btn btn-small btn-secondary"
      aria-label={`Copiar ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(code).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? "Copiado" : "Copiar"}
    </button>
  );
}

function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="code-block">
      {/* Focusable: a narrow screen scrolls the code sideways inside its box, also by keyboard. */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton code={code} label={label} />
    </div>
  );
}

export default function WidgetRoutes() {
  const { variants } = useLoaderData<typeof loader>();
  return (
    // Labelled: each live preview below has a <main> of its own.
    <main className="widget-docs" aria-labelledby="widget-docs-title">
      <h1 id="widget-docs-title">Widget de ofertas para tu web</h1>
      <p>
        Muestra 3 ofertas en tu página con una sola línea de HTML. Elige región (<code>region</code>, cualquier provincia) y categoría (
        <code>category</code>). Cada oferta se abre en una pestaña nueva. El widget no usa cookies. Con <code>widget.js</code> el marco se
        ajusta solo a la altura de su contenido; el <code>iframe</code> sin script funciona igual, con la altura que le des.
      </p>
      {variants.map((v) => (
        <section key={v.query || "default"} className="widget-variant">
          <h2>{v.label}</h2>
          <h3 className="small">Con una línea (ajusta la altura sola)</h3>
          <CodeBlock code={v.script} label={`el código de una línea: ${v.label}`} />
          <h3 className="small">Como iframe (sin JavaScript)</h3>
          <CodeBlock code={v.code} label={`el código iframe: ${v.label}`} />
          <iframe src={v.src} title={`Vista previa: ${v.label}`} height="430" loading="lazy" className="widget-preview" />
        </section>
      ))}
    </main>
  );
}
