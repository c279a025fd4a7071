import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { ApiError, mailApi, type MailLinkKey } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { LINK_PAGE_HEADERS, linkPageHeaders, originOnlyReferrerMeta } from "#app/document/mail-link";
import { seo } from "#app/document/seo";
import { ErrorPage } from "#app/components/error-page";

export const meta: MetaFunction = () => [
  ...seo({ title: "Darse de baja", description: "Dejar de recibir ofertas por correo.", noindex: true }),
  originOnlyReferrerMeta,
];
export const headers = linkPageHeaders;

/**
 * The link's key: its token (`t`), or the email and sig of mails sent before tokens. The spec's
 * «needs sig and email» reads: needs t (or both of those); else the main page.
 */
function linkKey(request: Request): MailLinkKey {
  const params = new URL(request.url).searchParams;
  const [t, email, sig] = ["t", "email", "sig"].map((k) => params.get(k));
  if (t) return { t };
  if (email && sig) return { email, sig };
  throw redirect("/");
}

/** The API opens the link; one it refuses is this route's «enlace no válido» page. */
async function openLink<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw data(null, { status: 400, headers: LINK_PAGE_HEADERS });
    throw error;
  }
}

/** Mail scanners open every link: GET only asks, the button's POST unsubscribes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const key = linkKey(request);
  const link = await openLink(() => mailApi.link("unsubscribe", key));
  // An old link's address leaves the address bar: the same page, under the token the API gave.
  if (!("t" in key)) throw redirect(`/unsubscribe?${new URLSearchParams({ t: link.t })}`, { headers: LINK_PAGE_HEADERS });
  return data({ email: link.email }, { headers: LINK_PAGE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const key = linkKey(request);
  await readForm(request);
  if (!("t" in key)) throw redirect(`/unsubscribe?${new URLSearchParams(key)}`, 303);
  await openLink(() => mailApi.unsubscribe(key.t));
  return data({ done: true as const });
}

export default function Unsubscribe() {
  const { email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (result?.done) {
    return (
      <section className="narrow">
        <h1>Te has dado de baja</h1>
        <p role="status">
          Ya no enviaremos ofertas a <strong>{email}</strong>. Seguirás recibiendo los correos de tus compras (confirmaciones y cupones).
        </p>
        <p className="muted">Si cambias de idea, marca «Quiero recibir ofertas por correo» en tu próxima compra.</p>
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
      <h1>¿Quieres dejar de recibir nuestras ofertas?</h1>
      <p>
        Dejaremos de enviar ofertas por correo a <strong>{email}</strong>. Los correos de tus compras (confirmaciones y cupones) seguirán
        llegando.
      </p>
      <Form method="post" replace>
        <button type="submit" className="btn" disabled={busy}>
          {busy ? "Dándote de baja…" : "Sí, darme de baja"}
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
  const invalid = isRouteErrorResponse(error) && error.status === 400;
  return (
    <ErrorPage title={invalid ? "Este enlace no es válido" : "No hemos podido darte de baja"}>
      <p>
        {invalid
          ? "Este enlace no es válido o está incompleto. Usa el enlace «Darse de baja» del último correo que te enviamos, tal cual te llegó."
          : "Inténtalo de nuevo en unos minutos."}
      </p>
    </ErrorPage>
  );
}
