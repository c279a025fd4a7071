import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate } from "#rules/dates";
import { PARTNER_ROLE_LABELS } from "#rules/partner-roles";
import { MemberSchema, OrganizationSchema } from "#contract/partner";
import { isUuid } from "#rules/uuid";
import { ConfirmDelete } from "#app/portal/confirm-delete";
import { TextField } from "#app/components/form-field";
import { OrganizationForm } from "#app/routes/admin.organizaciones+shared/organization-form";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { orNotFound, partnerApi, requireStaff } from "#app/portal/partner.server";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({ title: "Organización", description: "Datos y miembros de una empresa socia.", noindex: true });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  if (!isUuid(params.id)) throw new Response("Not Found", { status: 404 });
  const organization = await orNotFound(partnerApi(request).organization(params.id));
  const removing = new URL(request.url).searchParams.get("quitar");
  const leaving = organization.members?.find((m) => m.user_id === removing) ?? null;
  return data({ organization, members: organization.members ?? [], leaving }, { headers: { "Cache-Control": "private, no-store" } });
}

type Reply = { form: "org" | "member"; result: SubmissionResult<string[]> };

/** Three forms, one action: save the details, add a member by email, remove one (after confirming). */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireStaff(request);
  const id = params.id;
  if (!isUuid(id)) throw new Response("Not Found", { status: 404 });
  const here = `/admin/organizaciones/${id}`;
  const client = partnerApi(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const apiFailure = (which: Reply["form"], reply: (msg: string) => SubmissionResult<string[]>) => (error: unknown) => {
    if (error instanceof ApiError && error.status < 500)
      return data<Reply>({ form: which, result: reply(error.message) }, { status: error.status });
    throw error;
  };
  if (intent === "delete") {
    const user = String(form.get("user") ?? "");
    if (!isUuid(user)) return redirectWithToast(here, { type: "error", text: "Miembro no válido." }, request);
    await orNotFound(client.removeMember(id, user));
    return redirectWithToast(here, { type: "success", text: "Miembro quitado de la organización." }, request);
  }
  if (intent === "add-member") {
    const submission = parseWithZod(form, { schema: MemberSchema });
    if (submission.status !== "success") return data<Reply>({ form: "member", result: submission.reply() }, { status: 400 });
    try {
      await orNotFound(client.addMember(id, submission.value.email));
    } catch (error) {
      return apiFailure("member", (msg) => submission.reply({ fieldErrors: { email: [msg] } }))(error);
    }
    return redirectWithToast(here, { type: "success", text: `${submission.value.email} ya es miembro.` }, request);
  }
  const submission = parseWithZod(form, { schema: OrganizationSchema });
  if (submission.status !== "success") return data<Reply>({ form: "org", result: submission.reply() }, { status: 400 });
  try {
    await orNotFound(client.updateOrganization(id, submission.value));
  } catch (error) {
    return apiFailure("org", (msg) => submission.reply({ formErrors: [msg] }))(error);
  }
  return redirectWithToast(here, { type: "success", text: "Organización guardada." }, request);
}

function AddMember({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "add-member",
    lastResult,
    constraint: getZodConstraint(MemberSchema),
    // Checked on submit only: clearing the server's message on blur moved the button from under the pointer.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MemberSchema }),
  });
  return (
    <Form method="post" className="filters" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add-member" />
      <TextField field={fields.email} label="Correo de la persona" type="email" hint="Debe tener ya una cuenta; entra como titular." />
      <button type="submit" className="btn">
        Añadir miembro
      </button>
    </Form>
  );
}

export default function OrganizationPage() {
  const { organization, members, leaving } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  const here = `/admin/organizaciones/${organization.uuid}`;
  return (
    <section className="portal-section">
      <p className="breadcrumbs">
        <Link to="/admin/organizaciones">Organizaciones</Link> › {organization.name}
      </p>
      <h1>{organization.name}</h1>
      <section className="buy-box" aria-labelledby="miembros">
        <h2 id="miembros" style={{ margin: 0 }}>
          Miembros
        </h2>
        {leaving ? (
          <ConfirmDelete
            question={`¿Quitar a ${leaving.email ?? "esta persona"} de ${organization.name}?`}
            detail="Dejará de ver las ofertas, ventas y códigos de esta organización. Su cuenta sigue existiendo."
            cancelTo={here}
            confirmLabel="Sí, quitar"
            hidden={{ user: leaving.user_id }}
          />
        ) : null}
        {members.length === 0 ? (
          <p className="empty-state">Esta organización no tiene miembros todavía.</p>
        ) : (
          <ul className="member-list">
            {members.map((m) => (
              <li key={m.user_id}>
                <span>
                  <strong>{m.email ?? "Cuenta borrada"}</strong>
                  {m.first_name ? ` · ${m.first_name}` : ""}
                  <br />
                  <span className="muted small">
                    {PARTNER_ROLE_LABELS[m.role]} · desde el {formatDate(m.created_at)}
                  </span>
                </span>
                <Link to={`?quitar=${m.user_id}`} className="btn btn-small btn-secondary" aria-label={`Quitar a ${m.email ?? m.user_id}`}>
                  Quitar
                </Link>
              </li>
            ))}
          </ul>
        )}
        <AddMember lastResult={reply?.form === "member" ? reply.result : undefined} />
      </section>
      <section className="buy-box" aria-labelledby="datos">
        <h2 id="datos" style={{ margin: 0 }}>
          Datos de la organización
        </h2>
        <OrganizationForm organization={organization} lastResult={reply?.form === "org" ? reply.result : undefined} />
      </section>
    </section>
  );
}
