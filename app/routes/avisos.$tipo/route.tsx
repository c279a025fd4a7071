import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { REMINDER_NAMES, reminderKindOfSlug, type ReminderKind } from "#rules/reminders";
import { ApiError, mailApi } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { LINK_PAGE_HEADERS, linkPageHeaders, originOnlyReferrerMeta } from "#app/document/mail-link";
import { seo } from "#app/document/seo";
import { ErrorPage } from "#app/components/error-page";

export const meta: MetaFunction = () => [
  ...seo({ title: "Avisos de tus cupones", description: "Dejar de recibir un tipo de aviso sobre tus cupones.", noindex: true }),
  originOnlyReferrerMeta,
];
export const headers = linkPageHeaders;

/** The link's kind (/avisos/caducidad, /avisos/reserva) and token; without a token, the main page. */
function linkOf(request: Request, slug: string | undefined): { kind: ReminderKind; t: string } {
  const kind = reminderKindOfSlug(slug ?? "");
  if (!kind) throw data(null, { status: 404, headers: LINK_PAGE_HEADERS });
  const t = new URL(request.url).searchParams.get("t");
  if (!t) throw redirect("/");
  return { kind, t };
}

/** The API opens the token; one it refuses is this route's «enlace no válido» page. */
async function opened<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw data(null, { status: 400, headers: LINK_PAGE_HEADERS });
    throw error;
  }
}

/** Mail scanners open every link: GET only asks, the button's POST stops. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { kind, t } = linkOf(request, params.tipo);
  const link = await opened(() => mailApi.link(`reminder-${kind}`, { t }));
  return data({ kind, email: link.email }, { headers: LINK_PAGE_HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { kind, t } = linkOf(request, params.tipo);
  await readForm(request);
  await opened(() => mailApi.stopReminders(kind, t));
  return data({ done: true as const }, { headers: LINK_PAGE_HEADERS });
}

export default function StopReminders() {
  const { kind, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (result?.done) {
    return (
      <section className="narrow">
        <h1>Hecho: no te enviaremos más {REMINDER_NAMES[kind]}</h1>
        <p role="status">
          <strong>{email}</strong> ya no recibirá {REMINDER_NAMES[kind]}. Las confirmaciones de tus compras, con tus cupones, seguirán
          llegando.
        </p>
        <p>
          <Link to="/" className="btn">
            Ir a la página principal
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>¿No quieres más {REMINDER_NAMES[kind]}?</h1>
      <p>
        Dejaremos de enviar {REMINDER_NAMES[kind]} a <strong>{email}</strong>.
        {kind === "expiry"
          ? " Tendrás que vigilar tú la fecha de caducidad de cada cupón: pasada esa fecha no se puede canjear."
          : " Recuerda que esas ofertas solo se pueden disfrutar con reserva previa."}
      </p>
      <Form method="post" replace>
        <button type="submit" className="btn" disabled={busy}>
          {busy ? "Guardando…" : "Sí, no quiero más"}
        </button>
      </Form>
      <p>
        <Link to="/">No, volver a las ofertas</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage title={status === 400 || status === 404 ? "Este enlace no es válido" : "No hemos podido guardar tu elección"}>
      <p>
        {status === 400 || status === 404
          ? "Este enlace no es válido o está incompleto. Usa el enlace «Dejar de recibirlos» del último aviso que te enviamos, tal cual te llegó."
          : "Inténtalo de nuevo en unos minutos."}
      </p>
    </ErrorPage>
  );
}
