import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ApiError, authApi } from "#app/api-client/client.server";
import { partnerApi, requireRole } from "#app/portal/partner.server";
import { authData, setAuth } from "#app/state/auth.server";
import { commitSession, flash, getSession } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({ title: "Invitación al portal de socios", description: "Únete al equipo de una empresa en ofertas.", noindex: true });

const ANYONE = ["customer", "partner", "staff"] as const;

/**
 * An owner's invitation, from its mail. Whoever opens it logs in first (with the existing login by
 * code or password): the API accepts it only for the address it was sent to, which proves it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const me = await requireRole(request, ANYONE);
  const token = params.token ?? "";
  try {
    const invitation = await partnerApi(request).invitation(token);
    return data({ me: me.email, invitation, refusal: null }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    // Another address, or a link that no longer works: said in words, with the way out.
    if (error instanceof ApiError && (error.status === 403 || error.status === 404))
      return data(
        { me: me.email, invitation: null, refusal: error.message },
        { status: error.status, headers: { "Cache-Control": "private, no-store" } },
      );
    throw error;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, ANYONE);
  const accepted = await partnerApi(request).acceptInvitation(params.token ?? "");
  // The account may have just become a partner: a fresh token pair carries its role to the portal.
  const session = await getSession(request);
  const auth = authData(session);
  const renewed = auth ? await authApi.refresh(auth.refresh).catch(() => null) : null;
  if (renewed) setAuth(session, renewed);
  flash(session, { type: "success", text: `Ya formas parte de ${accepted.organization.name} como ${accepted.role_label.toLowerCase()}.` });
  return redirect("/socios", { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
}

export default function InvitationPage() {
  const { me, invitation, refusal } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section narrow-page">
      <h1>Invitación al portal de socios</h1>
      {invitation ? (
        <>
          <p>
            <strong>{invitation.organization.name}</strong> te invita a su equipo con el rol de{" "}
            <strong>{invitation.role_label.toLowerCase()}</strong>.
          </p>
          <p className="muted">Has entrado como {me}.</p>
          {invitation.accepted ? (
            <Link to="/socios" className="btn">
              Ir al portal de socios
            </Link>
          ) : (
            <Form method="post">
              <button type="submit" className="btn">
                Aceptar la invitación
              </button>
            </Form>
          )}
        </>
      ) : (
        <>
          <p role="alert">{refusal}</p>
          <p className="muted">
            Has entrado como {me}. <Link to="/logout">Sal</Link> y vuelve a abrir el enlace del correo entrando con la dirección a la que
            llegó.
          </p>
        </>
      )}
    </section>
  );
}
