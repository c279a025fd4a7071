import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatDate } from "#rules/dates";
import { isRole, ROLE_LABELS, ROLES } from "#rules/roles";
import { UserDeleteSchema, UsersQuerySchema } from "#contract/partner";
import { ConfirmDelete } from "#app/portal/confirm-delete";
import { DataTable } from "#app/portal/data-table";
import { SelectField, TextField } from "#app/components/form-field";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { countOf } from "#rules/plurals";

export const meta: MetaFunction = () => seo({ title: "Usuarios", description: "Buscar y borrar cuentas.", noindex: true });

const roleOptions = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

/** Search by email and role (a GET form); ?borrar=<id> asks before erasing that person. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const submission = parseWithZod(url.searchParams, { schema: UsersQuerySchema });
  const query = submission.status === "success" ? submission.value : {};
  const { results } = await partnerApi(request).users({ email: query.email, role: query.role });
  const erasing = results.find((u) => u.id === url.searchParams.get("borrar")) ?? null;
  const back = new URLSearchParams(url.searchParams);
  back.delete("borrar");
  return data(
    {
      users: results,
      erasing,
      query,
      back: `/admin/usuarios${back.size ? `?${back}` : ""}`,
      result: submission.status === "success" ? undefined : submission.reply(),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  url.searchParams.delete("borrar");
  const back = `/admin/usuarios${url.search}`;
  const parsed = UserDeleteSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return redirectWithToast(back, { type: "error", text: "Usuario no válido." }, request);
  try {
    await partnerApi(request).deleteUser(parsed.data.user);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return redirectWithToast(back, { type: "error", text: error.message }, request);
    throw error;
  }
  return redirectWithToast(back, { type: "success", text: "Cuenta borrada: sus datos personales se han eliminado." }, request);
}

export default function Users() {
  const { users, erasing, query, back, result } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "user-search",
    lastResult: result,
    constraint: getZodConstraint(UsersQuerySchema),
    defaultValue: { email: query.email ?? "", role: query.role ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UsersQuerySchema }),
  });
  const withQuery = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ ...(query.email ? { email: query.email } : {}), ...(query.role ? { role: query.role } : {}), ...extra })}`;
  return (
    <section className="portal-section">
      <h1>Usuarios</h1>
      <Form method="get" className="filters" {...getFormProps(form)}>
        <TextField field={fields.email} label="Correo contiene" type="search" />
        <SelectField field={fields.role} label="Rol" options={roleOptions} placeholder="Todos los roles" />
        <button type="submit" className="btn">
          Buscar
        </button>
      </Form>
      {erasing ? (
        <ConfirmDelete
          question={`¿Borrar la cuenta de ${erasing.email}?`}
          detail="Se borran su cuenta, favoritos, carrito y pertenencia a organizaciones; sus compras quedan anónimas. No se puede deshacer."
          cancelTo={back}
          confirmLabel="Sí, borrar la cuenta"
          hidden={{ user: erasing.id }}
        />
      ) : null}
      <p className="muted small" role="status">
        {users.length === 100 ? "Se muestran los 100 primeros: afina la búsqueda." : `${countOf(users.length, "cuenta", "cuentas")}.`}
      </p>
      {users.length === 0 ? (
        <p className="empty-state">Ninguna cuenta coincide con la búsqueda.</p>
      ) : (
        <DataTable
          caption="Usuarios"
          rows={users}
          rowKey={(u) => u.id}
          columns={[
            { header: "Correo", className: "break", cell: (u) => u.email },
            { header: "Nombre", cell: (u) => [u.first_name, u.last_name].filter(Boolean).join(" ") || "—" },
            {
              header: "Rol",
              cell: (u) => (
                <div>
                  {isRole(u.role) ? ROLE_LABELS[u.role] : u.role}
                  {u.is_active ? null : <span className="muted small"> (sin activar)</span>}
                </div>
              ),
            },
            { header: "Alta", cell: (u) => formatDate(u.date_joined, "dd/MM/yyyy") },
            {
              header: "Acciones",
              cell: (u) => (
                <div className="row-actions">
                  <Link to={withQuery({ borrar: u.id })} className="btn btn-small btn-secondary" aria-label={`Borrar ${u.email}`}>
                    Borrar
                  </Link>
                </div>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
