import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import {
  FeedbackFormSchema,
  FeedbackPageSchema,
  FeedbackRateFormSchema,
  MAX_FEEDBACK_COMMENT,
  stars,
  type Feedback,
} from "#contract/feedback";
import { isUuid } from "#rules/uuid";
import { ApiError, mailApi, offersApi, type RaterKey } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { LINK_PAGE_HEADERS, linkPageHeaders, originOnlyReferrerMeta } from "#app/document/mail-link";
import { seo } from "#app/document/seo";
import { Stars } from "#app/components/stars";
import { ErrorPage } from "#app/components/error-page";
import { Honeypot } from "#app/components/honeypot";
import { countOf } from "#rules/plurals";

export const meta: MetaFunction = () => [
  ...seo({ title: "Tu valoración", description: "Valora tu compra.", noindex: true }),
  originOnlyReferrerMeta,
];
export const headers = linkPageHeaders;

const starsLabel = (n: number) => countOf(n, "estrella", "estrellas");

/**
 * Who rates, from the link: the mail's token (`t`), or the offer alone (`offer=…`: the stars of
 * «Mis pedidos», and links in mails sent before tokens), which counts only for the logged-in
 * account that bought it. The spec's «needs rate, offer and email» reads: needs rate and t (or
 * offer); else the main page.
 */
function raterKey(params: URLSearchParams): RaterKey | null {
  const t = params.get("t");
  if (t) return { t };
  const offer = params.get("offer");
  return offer && isUuid(offer) ? { offer_uuid: offer } : null;
}

/**
 * A person's click on a star in the mail: the browser marks a navigation the user started with
 * Sec-Fetch-User. Mail scanners, link previews and prefetches do not, and get the question first.
 */
function isPersonsClick(request: Request): boolean {
  const h = request.headers;
  return h.get("sec-fetch-user") === "?1" && h.get("sec-fetch-mode") === "navigate" && !h.get("sec-purpose") && !h.get("purpose");
}

const titleOf = (offer: string) =>
  offersApi
    .get(offer)
    .then((o) => o.title)
    .catch(() => null);

function failure(error: unknown): never {
  if (error instanceof ApiError && error.status < 500)
    throw data({ message: error.message, status: error.status }, { status: error.status, headers: LINK_PAGE_HEADERS });
  throw error;
}

/**
 * The star links of the feedback mail. The spec sends the rating on load: it does, for a person's
 * click with a token link. Anything else (a scanner, a prefetch, an old link) shows that star
 * chosen and «Enviar valoración», which saves on POST. A rating is one per buyer and offer, and a
 * later one replaces it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const key = raterKey(params);
  const rate = params.get("rate");
  if (!key || !rate) throw redirect("/");
  const chosen = stars.safeParse(rate);
  if (!chosen.success) throw data({ message: chosen.error.issues[0].message, status: 400 }, { status: 400, headers: LINK_PAGE_HEADERS });
  const justSaved = params.get("guardado") === "1";
  try {
    if ("t" in key && !justSaved && isPersonsClick(request)) {
      const feedback = await mailApi.submitFeedback({ ...key, feedback_stars: chosen.data }, request);
      return data(
        { step: "saved" as const, feedback, title: await titleOf(feedback.offer_uuid), rate: chosen.data, justSaved },
        { headers: LINK_PAGE_HEADERS },
      );
    }
    const mine = await mailApi.myFeedback(key, request);
    const title = await titleOf(mine.offer_uuid);
    if (justSaved && mine.feedback)
      return data({ step: "saved" as const, feedback: mine.feedback, title, rate: chosen.data, justSaved }, { headers: LINK_PAGE_HEADERS });
    return data(
      { step: "confirm" as const, feedback: mine.feedback, title, rate: chosen.data, justSaved: false },
      { headers: LINK_PAGE_HEADERS },
    );
  } catch (error) {
    return failure(error);
  }
}

// Anonymous (the mail's link is the key) and its comment is shown to everyone: the honeypot too.
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { honeypot: true });
  const key = raterKey(new URL(request.url).searchParams);
  if (!key) throw redirect("/");
  const submission = parseWithZod(formData, { schema: FeedbackPageSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  try {
    const saved =
      form.intent === "rate"
        ? await mailApi.submitFeedback({ ...key, feedback_stars: form.feedback_stars }, request)
        : await mailApi.updateFeedback(
            form.id,
            { ...("t" in key ? key : {}), feedback_stars: form.feedback_stars, comment: form.comment ?? "" },
            request,
          );
    // Back to the link with the new stars, so that reloading it keeps them.
    const q = new URLSearchParams({ rate: String(saved.feedback_stars), ...("t" in key ? key : { offer: key.offer_uuid }), guardado: "1" });
    return redirect(`/feedback?${q}`, 303);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    throw error;
  }
}

export default function FeedbackPage() {
  const page = useLoaderData<typeof loader>();
  return page.step === "saved" ? (
    <Saved feedback={page.feedback} title={page.title} justSaved={page.justSaved} />
  ) : (
    <Confirm rate={page.rate} title={page.title} earlier={page.feedback} />
  );
}

function StarChoice({ name, value }: { name: string; value: number }) {
  return (
    <fieldset className="star-choice">
      <legend>Tu valoración</legend>
      {[1, 2, 3, 4, 5].map((n) => (
        <label key={n}>
          <input type="radio" name={name} value={n} defaultChecked={n === value} required />
          <span>{starsLabel(n)}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Before anything is saved: the star from the link, chosen, and one button. */
function Confirm({ rate, title, earlier }: { rate: number; title: string | null; earlier: Feedback | null }) {
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: `feedback-rate-${rate}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FeedbackRateFormSchema }),
  });
  return (
    <section className="narrow">
      <h1>Valora tu compra</h1>
      <p>¿Cuántas estrellas le das a {title ? <strong>«{title}»</strong> : "tu compra"}?</p>
      {earlier ? (
        <p className="muted">Ya la valoraste con {starsLabel(earlier.feedback_stars)}: si envías otra, sustituirá a la anterior.</p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="rate" />
        <StarChoice name={fields.feedback_stars.name} value={rate} />
        {form.errors ? <p className="field-error">{form.errors[0]}</p> : null}
        <Honeypot />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? "Enviando…" : "Enviar valoración"}
        </button>
      </Form>
      <p>
        <Link to="/">Ir a la página principal</Link>
      </p>
    </section>
  );
}

/** Saved: thanks, the stars given, and the form to change them or add a comment. */
function Saved({ feedback, title, justSaved }: { feedback: Feedback; title: string | null; justSaved: boolean }) {
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
      {justSaved ? (
        <p role="status" className="notice flash-success">
          Hemos guardado tu valoración.
        </p>
      ) : null}
      <p>Has valorado {title ? <strong>«{title}»</strong> : "tu compra"} con:</p>
      <p className="feedback-given" data-testid="feedback-stars">
        <Stars value={feedback.feedback_stars} label={`${starsLabel(feedback.feedback_stars)} de 5`} />
      </p>
      {feedback.comment ? <blockquote className="muted">{feedback.comment}</blockquote> : null}
      <h2>¿Quieres cambiarla o añadir un comentario?</h2>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="edit" />
        <input type="hidden" name={fields.id.name} value={feedback.id} />
        <StarChoice name={fields.feedback_stars.name} value={feedback.feedback_stars} />
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
  const location = useLocation();
  const answer = isRouteErrorResponse(error) ? (error.data as { message?: string; status?: number } | null) : null;
  // An old link (no token) counts for the account that bought the offer: logging in brings the
  // buyer back here, without the address that such links carried.
  const params = new URLSearchParams(location.search);
  const oldLink = answer?.status === 403 && !params.has("t") && params.get("offer");
  const back = oldLink ? `/feedback?${new URLSearchParams({ rate: params.get("rate") ?? "", offer: params.get("offer") ?? "" })}` : null;
  return (
    <ErrorPage title="No hemos podido guardar tu valoración">
      <p>{answer?.message ?? "Inténtalo de nuevo en unos minutos."}</p>
      {back ? (
        <p>
          <Link to={`/login?${new URLSearchParams({ redirectTo: back })}`}>Entrar en mi cuenta para valorarla</Link>
        </p>
      ) : (
        <p>Si has llegado desde un correo, usa las estrellas del correo tal cual te llegaron.</p>
      )}
    </ErrorPage>
  );
}
