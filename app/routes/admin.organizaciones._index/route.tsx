import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { OrganizationSchema, OrganizationSearchSchema } from "#contract/partner";
import { TextField } from "#app/components/form-field";
import { OrganizationForm } from "#app/routes/admin.organizaciones+shared/organization-form";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { DataTable } from "#app/portal/data-table";
import { loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PORTAL_PAGE_SIZE } from "#rules/constants";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Organizaciones", description: "Empresas socias y sus miembros.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: OrganizationSearchSchema });
  const search = submission.status === "success" ? submission.value.search : undefined;
  const { count, results, page } = await loadPage(request, PORTAL_PAGE_SIZE, (q) => partnerApi(request).organizations({ search, ...q }));
  return data({ organizations: results, count, page, search: search ?? "" }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const submission = parseWithZod(await readForm(request), { schema: OrganizationSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const created = await partnerApi(request).createOrganization(submission.value);
    return redirectWithToast(
      `/admin/organizaciones/${created.uuid}`,
      { type: "success", text: `Organización «${created.name}» creada. Añade sus miembros.` },
      request,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    throw error;
  }
}

export default function Organizations() {
  const { organizations, count, page, search } = useLoaderData<typeof loader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const [form, fields] = useForm({
    id: "org-search",
    constraint: getZodConstraint(OrganizationSearchSchema),
    defaultValue: { search },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrganizationSearchSchema }),
  });
  return (
    <section className="portal-section">
      <div className="portal-head">
        <h1>Organizaciones</h1>
        <a href="#crear-organizacion" className="btn btn-secondary">
          Nueva organización
        </a>
      </div>
      <Form method="get" className="filters" {...getFormProps(form)}>
        <TextField field={fields.search} label="Buscar por nombre" type="search" />
        <button type="submit" className="btn">
          Buscar
        </button>
      </Form>
      {count === 0 ? (
        <p className="empty-state">{search ? `Ninguna organización contiene «${search}».` : "Todavía no hay organizaciones."}</p>
      ) : (
        <DataTable
          caption="Organizaciones"
          rows={organizations}
          rowKey={(o) => o.uuid}
          columns={[
            { header: "Nombre", cell: (o) => <Link to={`/admin/organizaciones/${o.uuid}`}>{o.name}</Link> },
            { header: "CIF o NIF", cell: (o) => <span className="mono">{o.tax_id ?? "—"}</span> },
            { header: "Correo", cell: (o) => o.email ?? "—" },
            { header: "Provincia", cell: (o) => o.province ?? "—" },
          ]}
        />
      )}
      <Pagination page={page} count={count} pageSize={PORTAL_PAGE_SIZE} label="Páginas de organizaciones" />
      <section className="buy-box" aria-labelledby="crear-organizacion">
        <h2 id="crear-organizacion" style={{ margin: 0 }}>
          Crear una organización
        </h2>
        <OrganizationForm organization={null} lastResult={lastResult} />
      </section>
    </section>
  );
}
