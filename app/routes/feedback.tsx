import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { FeedbackFormSchema, FeedbackSchema, MAX_FEEDBACK_COMMENT } from "#lib/schemas/feedback";
import { ApiError, mailApi, offersApi } from "#app/lib/api.server";
import { readForm } from "#app/lib/form.server";
import { seo } from "#app/lib/seo";
import { Stars } from "#app/components/stars";
import { ErrorPage } from "#app/components/error-page";
import { Honeypot } from "#app/components/honeypot";

export const meta: MetaFunction = () => seo({ title: "Tu valoración", description: "Gracias por valorar tu compra.", noindex: true });

const starsLabel = (n: number) => `${n} ${n === 1 ? "estrella" : "estrellas"}`;

/**
 * The star links of the feedback mail. The spec sends the rating on load; that is safe because a
 * rating is one per email and offer and a later one replaces it: a mail scanner opening all five
 * links leaves one rating, and opening the same link twice changes nothing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const [rate, offer, email] = ["rate", "offer", "email"].map((k) => params.get(k));
  if (!rate || !offer || !email) throw redirect("/");
  const input = FeedbackSchema.safeParse({ feedback_stars: rate, offer_uuid: offer, user_email: email });
  if (!input.success) throw data({ message: input.error.issues[0].message }, { status: 400 });
  try {
    const feedback = await mailApi.submitFeedback(input.data);
    const title = await offersApi
      .get(feedback.offer_uuid)
      .then((o) => o.title)
      .catch(() => null);
    return data({ feedback, title, saved: params.get("guardado") === "1" }, { headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

// Anonymous (the mail's link is the key) and its comment is shown to everyone: the honeypot too.
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request, { honeypot: true }), { schema: FeedbackFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { id, feedback_stars, comment } = submission.value;
  try {
    const saved = await mailApi.updateFeedback(id, { feedback_stars, comment: comment ?? "" });
    // Back to the link with the new stars, so that reloading it keeps them.
    const q = new URLSearchParams({ rate: String(saved.feedback_stars), offer: saved.offer_uuid, email: saved.user_email, guardado: "1" });
    return redirect(`/feedback?${q}`, 303);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    throw error;
  }
}

export default function Feedback() {
  const { feedback, title, saved } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `feedback-${feedback.id}-${feedback.feedback_stars}`,
    lastResult,
    defaultValue: { id: feedback.id, feedback_stars: String(feedback.feedback_stars), comment: feedback.comment },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FeedbackFormSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <section className="narrow">
      <h1>¡Gracias por tu valoración!</h1>
      {saved ? (
        <p role="status" className="notice flash-success">
          Hemos guardado tus cambios.
        </p>
      ) : null}
      <p>
        Has valorado {title ? <strong>«{title}»</strong> : "tu compra"} con:
      </p>
      <p className="feedback-given" data-testid="feedback-stars">
        <Stars value={feedback.feedback_stars} label={`${starsLabel(feedback.feedback_stars)} de 5`} />
      </p>
      {feedback.comment ? <blockquote className="muted">{feedback.comment}</blockquote> : null}
      <h2>¿Quieres cambiarla o añadir un comentario?</h2>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name={fields.id.name} value={feedback.id} />
        <fieldset className="star-choice">
          <legend>Tu valoración</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n}>
              <input type="radio" name={fields.feedback_stars.name} value={n} defaultChecked={n === feedback.feedback_stars} />
              <span>{starsLabel(n)}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={fields.comment.id}>Comentario (opcional)</label>
          <textarea
            id={fields.comment.id}
            name={fields.comment.name}
            defaultValue={feedback.comment}
            maxLength={MAX_FEEDBACK_COMMENT}
            rows={4}
            aria-invalid={fields.comment.errors ? true : undefined}
            aria-describedby={fields.comment.errors ? fields.comment.errorId : undefined}
          />
          <p id={fields.comment.errorId} className="field-error">
            {fields.comment.errors?.[0]}
          </p>
        </div>
        {form.errors ? <p className="field-error">{form.errors[0]}</p> : null}
        <Honeypot />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? "Guardando…" : "Guardar valoración"}
        </button>
      </Form>
      <p>
        <Link to={`/ofertas/${feedback.offer_uuid}/`}>Ver la oferta</Link> · <Link to="/">Ir a la página principal</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? (error.data as { message?: string } | null)?.message : undefined;
  return (
    <ErrorPage title="No hemos podido guardar tu valoración">
      <p>{message ?? "Inténtalo de nuevo en unos minutos."}</p>
      <p>Si has llegado desde un correo, usa las estrellas del correo tal cual te llegaron.</p>
    </ErrorPage>
  );
}
