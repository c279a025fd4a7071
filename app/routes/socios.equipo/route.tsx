import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { TeamActionSchema } from "#contract/members";
import type { Invitation, Member } from "#contract/partner-responses";
import { formatDate } from "#rules/dates";
import { PARTNER_ROLE_LABELS, PARTNER_ROLES, partnerCan, type PartnerRole } from "#rules/partner-roles";
import { ConfirmDelete } from "#app/portal/confirm-delete";
import { SelectField, TextField } from "#app/components/form-field";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { orNotFound, partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () => seo({ title: "Equipo", description: "Quién trabaja en tu empresa y con qué rol.", noindex: true });

const ROLE_OPTIONS = PARTNER_ROLES.map((value) => ({ value, label: PARTNER_ROLE_LABELS[value] }));
const ROLE_HINTS: Record<PartnerRole, string> = {
  owner: "todo, también el equipo y las liquidaciones",
  manager: "ofertas, códigos promocionales, ventas y caja",
  cashier: "solo la caja y los canjes de hoy",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const { me, memberships } = await requirePartnerTo(request, "members.read");
  const client = partnerApi(request);
  const mine = memberships.filter((m) => partnerCan(m.role, "members.read"));
  const teams = await Promise.all(mine.map(async (org) => ({ org, ...(await orNotFound(client.team(org.uuid))) })));
  const url = new URL(request.url);
  const removing = { organization: url.searchParams.get("empresa"), user: url.searchParams.get("quitar") };
  return data({ me: me.email, teams, removing }, { headers: { "Cache-Control": "private, no-store" } });
}

type Reply = { organization: string; intent: string; result: SubmissionResult<string[]> };

/** Invite, change a role, remove a member (after confirming), cancel an invitation: the API decides each. */
export async function action({ request }: ActionFunctionArgs) {
  await requirePartnerTo(request, "members.write");
  const here = "/socios/equipo";
  const client = partnerApi(request);
  const form = await readForm(request);
  // The confirmation step posts «delete»: it is this page's «remove».
  if (form.get("intent") === "delete") form.set("intent", "remove");
  const submission = parseWithZod(form, { schema: TeamActionSchema });
  if (submission.status !== "success")
    return data<Reply>(
      { organization: String(form.get("organization") ?? ""), intent: String(form.get("intent") ?? ""), result: submission.reply() },
      { status: 400 },
    );
  const v = submission.value;
  try {
    if (v.intent === "invite") {
      await orNotFound(client.invite(v.organization, { email: v.email, role: v.role }));
      // The same words whether or not the address has an account: the page never tells.
      return redirectWithToast(
        here,
        { type: "success", text: `Invitación enviada a ${v.email}. Cuando entre con ese correo y la acepte, aparecerá aquí.` },
        request,
      );
    }
    if (v.intent === "role") {
      await orNotFound(client.changeRole(v.organization, v.user, v.role));
      return redirectWithToast(here, { type: "success", text: `Rol cambiado a ${PARTNER_ROLE_LABELS[v.role].toLowerCase()}.` }, request);
    }
    if (v.intent === "remove") {
      await orNotFound(client.removeMember(v.organization, v.user));
      return redirectWithToast(here, { type: "success", text: "Miembro quitado del equipo." }, request);
    }
    await orNotFound(client.cancelInvitation(v.organization, v.invitation));
    return redirectWithToast(here, { type: "success", text: "Invitación anulada." }, request);
  } catch (error) {
    // A refusal the person can act on (the last owner, a bad address): shown, nothing lost.
    if (error instanceof ApiError && error.status < 500 && error.status !== 401)
      return data<Reply>(
        { organization: v.organization, intent: v.intent, result: submission.reply({ formErrors: [error.message] }) },
        { status: error.status },
      );
    throw error;
  }
}

function InviteForm({ organization, lastResult }: { organization: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: `invite-${organization}`,
    lastResult,
    defaultValue: { role: "cashier" },
    constraint: getZodConstraint(TeamActionSchema.options[0]),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TeamActionSchema }),
  });
  return (
    <Form method="post" className="team-invite" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="invite" />
      <input type="hidden" name="organization" value={organization} />
      {form.errors?.length ? (
        <p className="field-error" id={form.errorId} role="alert">
          {form.errors.join(" ")}
        </p>
      ) : null}
      <TextField field={fields.email} label="Correo de la persona" type="email" />
      <SelectField field={fields.role} label="Rol" options={ROLE_OPTIONS} />
      <button type="submit" className="btn">
        Enviar invitación
      </button>
    </Form>
  );
}

function MemberRow({ organization, member, me }: { organization: string; member: Member; me: string }) {
  const name = member.email ?? "Cuenta borrada";
  return (
    <li>
      <span>
        <strong>{name}</strong>
        {member.email === me ? " (tú)" : ""}
        {member.first_name ? ` · ${member.first_name}` : ""}
        <br />
        <span className="muted small">
          {PARTNER_ROLE_LABELS[member.role]} · desde el {formatDate(member.created_at)}
        </span>
      </span>
      <div className="row-actions">
        <Form method="post" className="inline-form team-role">
          <input type="hidden" name="intent" value="role" />
          <input type="hidden" name="organization" value={organization} />
          <input type="hidden" name="user" value={member.user_id} />
          <label className="visually-hidden" htmlFor={`rol-${organization}-${member.user_id}`}>
            Rol de {name}
          </label>
          <select id={`rol-${organization}-${member.user_id}`} name="role" defaultValue={member.role}>
            {ROLE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-small btn-secondary" aria-label={`Cambiar el rol de ${name}`}>
            Cambiar
          </button>
        </Form>
        <Link
          to={`?empresa=${organization}&quitar=${member.user_id}`}
          className="btn btn-small btn-secondary"
          aria-label={`Quitar a ${name}`}
        >
          Quitar
        </Link>
      </div>
    </li>
  );
}

function InvitationRow({ organization, invitation }: { organization: string; invitation: Invitation }) {
  return (
    <li>
      <span>
        <strong>{invitation.email}</strong>
        <br />
        <span className="muted small">
          {PARTNER_ROLE_LABELS[invitation.role]} · invitación pendiente hasta el {formatDate(invitation.expires_at)}
        </span>
      </span>
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="organization" value={organization} />
        <input type="hidden" name="invitation" value={invitation.uuid} />
        <button type="submit" className="btn btn-small btn-secondary" aria-label={`Anular la invitación de ${invitation.email}`}>
          Anular
        </button>
      </Form>
    </li>
  );
}

export default function TeamPage() {
  const { me, teams, removing } = useLoaderData<typeof loader>();
  const reply = useActionData<Reply>();
  return (
    <section className="portal-section">
      <div className="portal-head">
        <h1>Equipo</h1>
      </div>
      <p className="muted">
        {PARTNER_ROLES.map((r) => `${PARTNER_ROLE_LABELS[r]}: ${ROLE_HINTS[r]}`).join(". ")}. Una empresa tiene siempre al menos un titular.
      </p>
      {teams.map(({ org, results, invitations }) => {
        const leaving = removing.organization === org.uuid ? results.find((m) => m.user_id === removing.user) : undefined;
        const here = reply?.organization === org.uuid ? reply : undefined;
        const inviteResult = here?.intent === "invite" ? here.result : undefined;
        const refusal = here && here.intent !== "invite" ? here.result.error?.[""] : undefined;
        return (
          <section key={org.uuid} className="buy-box" aria-labelledby={`equipo-${org.uuid}`}>
            <h2 id={`equipo-${org.uuid}`} style={{ margin: 0 }}>
              {org.name}
            </h2>
            {leaving ? (
              <ConfirmDelete
                question={`¿Quitar a ${leaving.email ?? "esta persona"} de ${org.name}?`}
                detail="Dejará de ver esta empresa en el portal de socios. Su cuenta sigue existiendo."
                cancelTo="/socios/equipo"
                confirmLabel="Sí, quitar"
                hidden={{ organization: org.uuid, user: leaving.user_id }}
              />
            ) : null}
            {refusal?.length ? (
              <p className="field-error" role="alert">
                {refusal.join(" ")}
              </p>
            ) : null}
            <ul className="member-list team-list" aria-label={`Miembros de ${org.name}`}>
              {results.map((m) => (
                <MemberRow key={m.user_id} organization={org.uuid} member={m} me={me} />
              ))}
            </ul>
            {invitations.length ? (
              <>
                <h3>Invitaciones pendientes</h3>
                <ul className="member-list team-list" aria-label={`Invitaciones pendientes de ${org.name}`}>
                  {invitations.map((i) => (
                    <InvitationRow key={i.uuid} organization={org.uuid} invitation={i} />
                  ))}
                </ul>
              </>
            ) : null}
            <h3>Invitar a alguien</h3>
            {/* A new invitation listed above: a fresh, empty form (with JavaScript the old one kept its value). */}
            <InviteForm key={invitations.length} organization={org.uuid} lastResult={inviteResult} />
          </section>
        );
      })}
    </section>
  );
}
