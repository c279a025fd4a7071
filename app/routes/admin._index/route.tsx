import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { formatDateTime } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { MISSING_PHOTO } from "#rules/images";
import { OfferReviewSchema } from "#contract/partner";
import type { OfferRevisionForReview, PartnerOffer } from "#contract/partner-responses";
import { OFFER_STATUS_LABELS } from "#rules/offer-status";
import { RevisionChanges } from "#app/components/offer-revision";
import { TextAreaField } from "#app/components/form-field";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { partnerApi, requireStaff } from "#app/portal/partner.server";
import { samePage, loadPage } from "#app/forms/page-param";
import { Pagination } from "#app/components/pagination";
import { PAGE_SIZE_DEFAULT } from "#rules/constants";
import { redirectWithToast } from "#app/state/session.server";
import { countOf, plural } from "#rules/plurals";
import { ticketsInWords } from "#rules/text";

/** Changes to offers on sale shown at once, oldest first: deciding them brings up the next ones. */
const CHANGES_SHOWN = PAGE_SIZE_DEFAULT;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const client = partnerApi(request);
  const [{ count, results, page }, changes] = await Promise.all([
    loadPage(request, PAGE_SIZE_DEFAULT, (q) => client.offers({ status: "pending_review", ...q })),
    client.revisions({ page_size: CHANGES_SHOWN }),
  ]);
  return data(
    { pending: results, count, page, changes: changes.results, changeCount: changes.count },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const DONE: Record<(typeof OfferReviewSchema)["_output"]["intent"], string> = {
  approve: "Oferta aprobada y publicada.",
  "send-back": "Oferta devuelta al socio.",
  "approve-changes": "Cambios aprobados: la oferta ya se vende con ellos.",
  "reject-changes": "Cambios rechazados: la oferta sigue como estaba.",
};

/**
 * A new offer: approve puts it on sale, sending it back needs a reason the partner will read.
 * A change to an offer on sale: approve publishes it, rejecting it needs a reason too.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const submission = parseWithZod(await readForm(request), { schema: OfferReviewSchema });
  if (submission.status !== "success") {
    return data(
      { target: String(submission.payload.offer ?? submission.payload.revision ?? ""), result: submission.reply() },
      { status: 400 },
    );
  }
  const review = submission.value;
  const client = partnerApi(request);
  try {
    if (review.intent === "approve") await client.updateOffer(review.offer, { status: "active" });
    else if (review.intent === "send-back") await client.updateOffer(review.offer, { status: "draft", review_note: review.review_note });
    else if (review.intent === "approve-changes") await client.decideRevision(review.revision, { status: "approved" });
    else await client.decideRevision(review.revision, { status: "rejected", review_note: review.review_note });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return redirectWithToast(samePage("/admin", request), { type: "error", text: error.message }, request);
    throw error;
  }
  return redirectWithToast(samePage("/admin", request), { type: "success", text: DONE[review.intent] }, request);
}

/** A decision that needs the reason the partner will read: an offer sent back, or a change rejected. */
function WithReason({
  intent,
  target,
  label,
  button,
}: {
  intent: "send-back" | "reject-changes";
  target: { name: "offer" | "revision"; uuid: string };
  label: string;
  button: string;
}) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `${intent}-${target.uuid}`,
    lastResult: actionData?.target === target.uuid ? actionData.result : undefined,
    constraint: getZodConstraint(OfferReviewSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferReviewSchema }),
  });
  return (
    <Form method="post" className="stack-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={target.name} value={target.uuid} />
      <TextAreaField field={fields.review_note} label={label} rows={2} />
      <button type="submit" className="btn btn-secondary">
        {button}
      </button>
    </Form>
  );
}

const SendBack = ({ offer }: { offer: PartnerOffer }) => (
  <WithReason
    intent="send-back"
    target={{ name: "offer", uuid: offer.uuid }}
    label={`Motivo para devolver «${offer.title}»`}
    button="Devolver con el motivo"
  />
);

/** A change to an offer on sale: what it proposes beside what is on sale, approve or reject. */
function ChangeReview({ change }: { change: OfferRevisionForReview }) {
  const { offer } = change;
  return (
    <article className="buy-box" aria-labelledby={`change-${change.uuid}`}>
      <h3 id={`change-${change.uuid}`} style={{ margin: 0 }}>
        {offer.title}
      </h3>
      <p className="muted small">
        {offer.organization.name} · {offer.region} · {OFFER_STATUS_LABELS[offer.status]} · enviados el {formatDateTime(change.submitted_at)}{" "}
        · <Link to={`/ofertas/${offer.uuid}/`}>ver la oferta publicada</Link>
      </p>
      <RevisionChanges revision={change} />
      <Form method="post">
        <input type="hidden" name="intent" value="approve-changes" />
        <input type="hidden" name="revision" value={change.uuid} />
        <button type="submit" className="btn" aria-label={`Aprobar los cambios de «${offer.title}»`}>
          Aprobar los cambios
        </button>
      </Form>
      <WithReason
        intent="reject-changes"
        target={{ name: "revision", uuid: change.uuid }}
        label={`Motivo para rechazar los cambios de «${offer.title}»`}
        button="Rechazar con el motivo"
      />
    </article>
  );
}

/** A new offer waiting for its first approval; without a photo of its own it cannot be approved. */
function PendingOffer({ offer: o }: { offer: PartnerOffer }) {
  const photo = o.images.find((image) => !image.logo);
  return (
    <article className="buy-box" aria-labelledby={`pending-${o.uuid}`}>
      <h2 id={`pending-${o.uuid}`} style={{ margin: 0 }}>
        {o.title}
      </h2>
      <p className="muted small">
        {o.organization.name} · {o.region} · {isCategoryId(o.category) ? CATEGORY_LABELS[o.category] : o.category}
        {o.submitted_at ? ` · enviada el ${formatDateTime(o.submitted_at)}` : null}
      </p>
      {photo ? (
        <img
          src={photo.variants[1]?.url ?? photo.image_url}
          alt={photo.alt}
          width={400}
          height={250}
          style={{ maxWidth: "100%", height: "auto", borderRadius: 8 }}
        />
      ) : null}
      <p>{o.summary}</p>
      <ul>
        {o.price_options.map((p) => (
          <li key={p.uuid}>
            {p.title}: {formatPrice(p.actual_price)} (antes {formatPrice(p.regular_price)}), {ticketsInWords(p.available)}
          </li>
        ))}
      </ul>
      {photo ? null : (
        <p className="form-error" id={`no-photo-${o.uuid}`}>
          <strong>{MISSING_PHOTO}.</strong> La tienda mostraría el dibujo provisional: devuélvela al socio para que suba una foto de
          portada.
        </p>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="offer" value={o.uuid} />
        <button
          type="submit"
          className="btn"
          aria-label={`Aprobar «${o.title}»`}
          aria-describedby={photo ? undefined : `no-photo-${o.uuid}`}
        >
          Aprobar
        </button>
      </Form>
      <SendBack offer={o} />
    </article>
  );
}

export default function PendingOffers() {
  const { pending, count, page, changes, changeCount } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section">
      <h1>Ofertas pendientes de revisión</h1>
      {changeCount > 0 ? (
        <p>
          <a href="#cambios">{countOf(changeCount, "cambio", "cambios")} en ofertas a la venta por revisar</a>
        </p>
      ) : null}
      {count === 0 ? (
        <p className="empty-state">No hay ofertas pendientes.</p>
      ) : (
        <p className="muted">
          {countOf(count, "oferta", "ofertas")} por revisar, {plural(count, "la más antigua", "las más antiguas")} primero.
        </p>
      )}
      {pending.map((o) => (
        <PendingOffer key={o.uuid} offer={o} />
      ))}
      <Pagination page={page} count={count} pageSize={PAGE_SIZE_DEFAULT} label="Páginas de ofertas pendientes" />
      <section className="portal-section" id="cambios" aria-labelledby="changes-title">
        <h2 id="changes-title">Cambios en ofertas a la venta</h2>
        {changeCount === 0 ? (
          <p className="empty-state">No hay cambios pendientes.</p>
        ) : (
          <p className="muted">
            {countOf(changeCount, "cambio", "cambios")} por revisar, {plural(changeCount, "el más antiguo", "los más antiguos")} primero
            {changeCount > changes.length ? ` (se muestran los ${changes.length} primeros)` : ""}. Hasta que los apruebes, cada oferta se
            vende como está publicada.
          </p>
        )}
        {changes.map((change) => (
          <ChangeReview key={change.uuid} change={change} />
        ))}
      </section>
    </section>
  );
}
