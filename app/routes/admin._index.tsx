import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#lib/categories";
import { formatDateTime } from "#lib/dates";
import { formatCount, formatPrice } from "#lib/prices";
import { OfferReviewSchema } from "#lib/schemas/partner";
import type { PartnerOffer } from "#lib/schemas/partner-api";
import { TextAreaField } from "#app/components/form-field";
import { ApiError } from "#app/lib/api.server";
import { readForm } from "#app/lib/form.server";
import { partnerApi, requireStaff } from "#app/lib/partner.server";
import { samePage, loadPage } from "#app/lib/page-param";
import { Pagination } from "#app/components/pagination";
import { PAGE_SIZE_DEFAULT } from "#lib/constants";
import { redirectWithToast } from "#app/lib/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const { count, results, page } = await loadPage(request, PAGE_SIZE_DEFAULT, (q) => partnerApi(request).offers({ status: "pending_review", ...q }));
  return data({ pending: results, count, page }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Approve puts the offer on sale; sending it back needs a reason the partner will read. */
export async function action({ request }: ActionFunctionArgs) {
  await requireStaff(request);
  const submission = parseWithZod(await readForm(request), { schema: OfferReviewSchema });
  if (submission.status !== "success") return data({ offer: submission.payload.offer, result: submission.reply() }, { status: 400 });
  const review = submission.value;
  try {
    await partnerApi(request).updateOffer(
      review.offer,
      review.intent === "approve" ? { status: "active" } : { status: "draft", review_note: review.review_note },
    );
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return redirectWithToast(samePage("/admin", request), { type: "error", text: error.message }, request);
    throw error;
  }
  return redirectWithToast(samePage("/admin", request), { type: "success", text: review.intent === "approve" ? "Oferta aprobada y publicada." : "Oferta devuelta al socio." }, request);
}

function SendBack({ offer }: { offer: PartnerOffer }) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `send-back-${offer.uuid}`,
    lastResult: actionData?.offer === offer.uuid ? actionData.result : undefined,
    constraint: getZodConstraint(OfferReviewSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferReviewSchema }),
  });
  return (
    <Form method="post" className="stack-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="send-back" />
      <input type="hidden" name="offer" value={offer.uuid} />
      <TextAreaField field={fields.review_note} label={`Motivo para devolver «${offer.title}»`} rows={2} />
      <button type="submit" className="btn btn-secondary">
        Devolver con el motivo
      </button>
    </Form>
  );
}

export default function PendingOffers() {
  const { pending, count, page } = useLoaderData<typeof loader>();
  return (
    <section className="portal-section">
      <h1>Ofertas pendientes de revisión</h1>
      {count === 0 ? <p className="empty-state">No hay ofertas pendientes.</p> : <p className="muted">{count === 1 ? "1 oferta por revisar" : `${formatCount(count)} ofertas por revisar`}, las más antiguas primero.</p>}
      {pending.map((o) => (
        <article key={o.uuid} className="buy-box" aria-labelledby={`pending-${o.uuid}`}>
          <h2 id={`pending-${o.uuid}`} style={{ margin: 0 }}>
            {o.title}
          </h2>
          <p className="muted small">
            {o.organization.name} · {o.region} · {isCategoryId(o.category) ? CATEGORY_LABELS[o.category] : o.category}
            {o.submitted_at ? ` · enviada el ${formatDateTime(o.submitted_at)}` : null}
          </p>
          {o.images[0] ? <img src={o.images[0].variants[1]?.url ?? o.images[0].image_url} alt={o.images[0].alt} width={400} height={250} style={{ maxWidth: "100%", height: "auto", borderRadius: 8 }} /> : null}
          <p>{o.summary}</p>
          <ul>
            {o.price_options.map((p) => (
              <li key={p.uuid}>
                {p.title}: {formatPrice(p.actual_price)} (antes {formatPrice(p.regular_price)}), {p.available} entradas
              </li>
            ))}
          </ul>
          <Form method="post">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="offer" value={o.uuid} />
            <button type="submit" className="btn" aria-label={`Aprobar «${o.title}»`}>
              Aprobar
            </button>
          </Form>
          <SendBack offer={o} />
        </article>
      ))}
      <Pagination page={page} count={count} pageSize={PAGE_SIZE_DEFAULT} label="Páginas de ofertas pendientes" />
    </section>
  );
}
