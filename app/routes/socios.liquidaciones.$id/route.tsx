import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { isUuid } from "#rules/uuid";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { Pagination } from "#app/components/pagination";
import { loadPage } from "#app/forms/page-param";
import { orNotFound, partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { StatementHead, StatementLines } from "#app/portal/statement-view";
import { seo } from "#app/document/seo";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  seo({
    title: data ? `Liquidación ${data.statement.number}` : "Liquidación",
    description: "Una liquidación y sus líneas.",
    noindex: true,
  });

/** One of the organisation's statements and its lines; another organisation's is not found. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "statements.read");
  const id = params.id;
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const client = partnerApi(request);
  const [statement, { page, ...lines }] = await Promise.all([
    orNotFound(client.statement(id)),
    orNotFound(loadPage(request, PORTAL_PAGE_SIZE, (q) => client.statementLines(id, q))),
  ]);
  return data({ statement, lines, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Statement() {
  const { statement, lines, page } = useLoaderData<typeof loader>();
  const base = `/socios/liquidaciones/${statement.uuid}`;
  return (
    <section className="portal-section">
      <p className="breadcrumbs">
        <Link to="/socios/liquidaciones">Liquidaciones</Link> › {statement.number}
      </p>
      <StatementHead statement={statement} files={{ csv: `${base}/csv`, pdf: `${base}/pdf` }} />
      <h2>Líneas</h2>
      <StatementLines lines={lines.results} />
      <Pagination page={page} count={lines.count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de líneas" />
    </section>
  );
}
