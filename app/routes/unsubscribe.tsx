import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { verifyUnsubscribe } from "#lib/signatures.server";
import { ApiError, mailApi } from "#app/lib/api.server";
import { config } from "#app/lib/env.server";
import { readForm } from "#app/lib/form.server";
import { seo } from "#app/lib/seo";
import { ErrorPage } from "#app/components/error-page";

export const meta: MetaFunction = () => seo({ title: "Darse de baja", description: "Dejar de recibir ofertas por correo.", noindex: true });

function signedParams(request: Request) {
  const params = new URL(request.url).searchParams;
  const email = params.get("email")?.trim().toLowerCase();
  const sig = params.get("sig");
  if (!email || !sig) throw redirect("/");
  if (!verifyUnsubscribe(config().sessionSecrets, email, sig)) throw data(null, { status: 400 });
  return { email, sig };
}

/** Mail scanners open every link: GET only asks, the button's POST unsubscribes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { email } = signedParams(request);
  return data({ email }, { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const { email, sig } = signedParams(request);
  await readForm(request);
  try {
    const answer = await mailApi.unsubscribe(email, sig);
    return data({ done: true as const, detail: answer.detail });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw data(null, { status: 400 });
    throw error;
  }
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
        <p className="muted">
          Si cambias de idea, marca «Quiero recibir ofertas por correo» en tu próxima compra.
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
      <h1>¿Quieres dejar de recibir nuestras ofertas?</h1>
      <p>
        Dejaremos de enviar ofertas por correo a <strong>{email}</strong>. Los correos de tus compras (confirmaciones y cupones)
        seguirán llegando.
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
