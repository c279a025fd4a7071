import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { CATEGORY_IDS, CATEGORY_LABELS, OFFER_TYPE_LABELS, OFFER_TYPES } from "#rules/categories";
import { OFFER_STATUS_LABELS } from "#rules/offer-status";
import { REVIEWED_STATUSES, withChanges } from "#rules/offer-revisions";
import { formatDateTime } from "#rules/dates";
import type { OfferRevision, PartnerOffer } from "#contract/partner-responses";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, MAX_IMAGES_PER_OFFER } from "#rules/images";
import { REGIONS } from "#rules/regions";
import { MAX_PRICE_OPTIONS, OfferSchema } from "#contract/partner";
import { isUuid } from "#rules/uuid";
import { PAGE_SIZE_MAX } from "#rules/constants";
import { FieldError, FormError, SelectField, TextAreaField, TextField } from "#app/components/form-field";
import { RevisionChanges } from "#app/components/offer-revision";
import { ApiError } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { orNotFound, partnerApi, requirePartnerTo } from "#app/portal/partner.server";
import { redirectWithToast } from "#app/state/session.server";

/** The picture's 5 MB and the form's other fields. */
const MAX_UPLOAD_BYTES = MAX_IMAGE_BYTES + 1024 * 1024;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePartnerTo(request, "offers.read");
  const client = partnerApi(request);
  const isNew = params.id === "nueva";
  if (!isNew && !isUuid(params.id)) throw new Response("Not Found", { status: 404 });
  const [orgs, offer] = await Promise.all([
    client.organizations({ page_size: PAGE_SIZE_MAX }),
    isNew ? null : orNotFound(client.offer(params.id!)),
  ]);
  return data({ organizations: orgs.results, offer }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Blank option rows after the existing ones, so a new option can be added without JavaScript. */
function optionRows<T extends object>(existing: T[]): Partial<T>[] {
  const rows: Partial<T>[] = [...existing];
  while (rows.length < Math.min(MAX_PRICE_OPTIONS, existing.length + 2)) rows.push({});
  return rows;
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requirePartnerTo(request, "offers.read");
  const client = partnerApi(request);
  const id = params.id!;
  const here = `/socios/ofertas/${id}`;
  let form: FormData;
  try {
    form = await readForm(request, { maxBytes: MAX_UPLOAD_BYTES });
  } catch (error) {
    // Only a picture makes this form that big: say so on the page, not on an error screen.
    if (error instanceof Response && error.status === 413)
      return redirectWithToast(here, { type: "error", text: IMAGE_TOO_LARGE }, request);
    throw error;
  }
  const intent = String(form.get("intent") ?? "save");
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status < 500) return redirectWithToast(here, { type: "error", text: error.message }, request);
    throw error;
  };
  if (intent === "upload") {
    const file = form.get("image");
    if (!(file instanceof File) || file.size === 0)
      return redirectWithToast(here, { type: "error", text: "Elige una imagen para subir." }, request);
    const role = String(form.get("role") ?? "photo");
    try {
      await client.uploadImage({
        offer: id,
        image: file,
        cover: role === "cover",
        logo: role === "logo",
        alt: String(form.get("alt") ?? "").slice(0, 200),
      });
    } catch (error) {
      return fail(error);
    }
    return redirectWithToast(here, { type: "success", text: "Imagen subida." }, request);
  }
  if (intent === "image-cover" || intent === "image-delete") {
    const image = String(form.get("image") ?? "");
    if (!isUuid(image)) return redirect(here, 303);
    try {
      if (intent === "image-cover") await client.updateImage(image, { cover: true });
      else await client.deleteImage(image);
    } catch (error) {
      return fail(error);
    }
    return redirectWithToast(here, { type: "success", text: intent === "image-cover" ? "Portada cambiada." : "Imagen borrada." }, request);
  }
  if (intent === "revision-withdraw") {
    const revision = String(form.get("revision") ?? "");
    if (!isUuid(revision)) return redirect(here, 303);
    try {
      await client.withdrawRevision(revision);
    } catch (error) {
      return fail(error);
    }
    return redirectWithToast(here, { type: "success", text: "Cambios retirados. La oferta sigue a la venta como estaba." }, request);
  }
  const submission = parseWithZod(form, { schema: OfferSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const saved = id === "nueva" ? await client.createOffer(submission.value) : await client.updateOffer(id, submission.value);
    return redirectWithToast(
      `/socios/ofertas/${saved.uuid}`,
      { type: "success", text: savedMessage(id === "nueva", saved, String(form.get("waiting") ?? "")) },
      request,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    throw error;
  }
}

/** What saving did: a new draft, changes on the page now, or changes sent to (or still waiting for) staff. */
function savedMessage(created: boolean, saved: PartnerOffer, waitingBefore: string): string {
  if (created) return "Oferta creada como borrador. Añade una foto y envíala a revisión.";
  if (saved.revision?.status !== "pending") return "Cambios guardados.";
  if (saved.revision.uuid === waitingBefore) return "Cambios guardados. Los de textos y precios siguen pendientes de revisión.";
  return "Cambios enviados a revisión. Hasta que el equipo los apruebe, la oferta sigue a la venta como estaba.";
}

type OptionRow = {
  uuid?: string;
  title?: string;
  actual_price?: string;
  regular_price?: string;
  available?: string;
  per_customer?: string;
};
type OfferForm = {
  organization: string;
  title: string;
  summary: string;
  description: string;
  conditions: string;
  category: string;
  region: string;
  address: string;
  offer_type: string;
  valid_from: string;
  valid_until: string;
  sale_until: string;
  price_options: OptionRow[];
};

const categoryOptions = CATEGORY_IDS.map((id) => ({ value: id, label: CATEGORY_LABELS[id] }));
const provinceOptions = REGIONS.map((r) => ({ value: r.value, label: r.label }));
const typeOptions = OFFER_TYPES.map((t) => ({ value: t, label: OFFER_TYPE_LABELS[t] }));

/** One button that posts one intent about one thing (a picture, a change): a form of its own, so it works without JavaScript. */
function IntentButton({
  intent,
  field,
  className,
  inline,
  children,
}: {
  intent: string;
  field: Record<string, string>;
  className: string;
  inline?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={inline ? "inline-form" : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(field).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}

/** The change waiting for staff (it can be taken back), or the last one they rejected and why. */
function RevisionNotice({ revision }: { revision: OfferRevision }) {
  const pending = revision.status === "pending";
  return (
    <section className="revision-box" aria-labelledby="revision-title">
      <h2 id="revision-title">{pending ? "Cambios pendientes de revisión" : "Cambios rechazados"}</h2>
      {pending ? (
        <p>
          Enviados el {formatDateTime(revision.submitted_at)}. Hasta que el equipo los apruebe, la oferta sigue a la venta tal como está
          publicada.
        </p>
      ) : (
        <p>
          El equipo no aprobó los cambios que enviaste el {formatDateTime(revision.submitted_at)}: <strong>{revision.review_note}</strong>{" "}
          La oferta sigue a la venta como estaba.
        </p>
      )}
      <RevisionChanges revision={revision} />
      {pending ? (
        <IntentButton intent="revision-withdraw" field={{ revision: revision.uuid }} className="btn btn-secondary">
          Retirar estos cambios
        </IntentButton>
      ) : null}
    </section>
  );
}

/**
 * The form starts from what the page loaded, so it starts again when that changes under it: a
 * change sent, taken back, approved or rejected, or another offer.
 */
export default function EditOffer() {
  const { offer } = useLoaderData<typeof loader>();
  const waiting = offer?.revision?.status === "pending" ? offer.revision.uuid : "live";
  return <OfferEditor key={`${offer?.uuid ?? "nueva"}:${waiting}`} />;
}

function OfferEditor() {
  const { organizations, offer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // The form shows the offer as its partner last wrote it: with the change waiting for staff on top.
  const waiting = offer?.revision?.status === "pending" ? offer.revision : null;
  const written = offer ? withChanges(offer, waiting?.changes) : null;
  const [form, fields] = useForm<OfferForm>({
    id: "offer-form",
    lastResult,
    constraint: getZodConstraint(OfferSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      organization: offer?.organization.uuid ?? (organizations.length === 1 ? organizations[0].uuid : ""),
      title: written?.title ?? "",
      summary: written?.summary ?? "",
      description: written?.description ?? "",
      conditions: written?.conditions ?? "",
      category: offer?.category ?? "",
      region: offer?.region ?? "",
      address: offer?.address ?? "",
      offer_type: offer?.offer_type ?? "regular",
      valid_from: offer?.valid_from ?? "",
      valid_until: offer?.valid_until ?? "",
      sale_until: offer?.sale_until ?? "",
      price_options: optionRows(
        (written?.price_options ?? []).map((p) => ({
          uuid: p.uuid ?? "",
          title: p.title,
          actual_price: p.actual_price,
          regular_price: p.regular_price,
          available: String(p.available),
          per_customer: p.per_customer === null ? "" : String(p.per_customer),
        })),
      ),
    },
    // The form's own field shape (strings) is typed above; the schema's parsed output differs (numbers, nulls).
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferSchema }) as never,
  });
  const rows = fields.price_options.getFieldList();
  return (
    <section className="portal-section">
      <h1>{offer ? offer.title : "Nueva oferta"}</h1>
      {offer ? (
        <p>
          Estado: <span className={`status-pill status-${offer.status}`}>{OFFER_STATUS_LABELS[offer.status]}</span>
          {offer.review_note ? <span className="field-error"> Devuelta por el equipo: {offer.review_note}</span> : null}
        </p>
      ) : null}
      {offer?.revision ? <RevisionNotice revision={offer.revision} /> : null}
      {offer?.status === "ended" ? (
        <p className="field-hint">
          Su plazo de venta terminó y ya no sale en la tienda. Para volver a venderla, pon una fecha posterior en «A la venta hasta» o
          déjala vacía. Los cambios de título, resumen, descripción, condiciones y precios los revisa el equipo antes de publicarlos.
        </p>
      ) : offer && REVIEWED_STATUSES.includes(offer.status) ? (
        <p className="field-hint">
          La oferta está a la venta: los cambios de título, resumen, descripción, condiciones y precios los revisa el equipo antes de
          publicarlos, y mientras tanto se sigue vendiendo como está. Las entradas, las fechas, la dirección y la categoría cambian al
          momento.
        </p>
      ) : null}
      <Form method="post" className="stack-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="waiting" value={waiting?.uuid ?? ""} />
        <FormError form={form} />
        <div className="form-grid">
          <SelectField
            field={fields.organization}
            label="Empresa"
            options={organizations.map((o) => ({ value: o.uuid, label: o.name }))}
            placeholder="Elige la empresa"
          />
          <TextField field={fields.title} label="Título" />
          <SelectField field={fields.category} label="Categoría" options={categoryOptions} placeholder="Elige una categoría" />
          <SelectField field={fields.region} label="Provincia" options={provinceOptions} placeholder="Elige una provincia" />
          <TextField field={fields.address} label="Dirección" />
          <SelectField field={fields.offer_type} label="Tipo de oferta" options={typeOptions} />
          <TextField field={fields.valid_from} label="Válida desde" type="date" />
          <TextField field={fields.valid_until} label="Válida hasta" type="date" />
          <TextField
            field={fields.sale_until}
            label="A la venta hasta"
            type="date"
            hint="Último día de venta, hasta las 23:59. En blanco: sin fecha."
          />
        </div>
        <TextAreaField field={fields.summary} label="Resumen" rows={2} />
        <TextAreaField field={fields.description} label="Descripción" rows={5} />
        <TextAreaField field={fields.conditions} label="Condiciones" rows={3} />
        <fieldset className="option-rows">
          <legend>Opciones de precio</legend>
          <p className="field-hint">Deja en blanco las filas que no uses. Un cambio de precio solo afecta a las próximas compras.</p>
          <FieldError field={fields.price_options} />
          {rows.map((row, i) => {
            const o = row.getFieldset();
            return (
              <fieldset key={row.key} className="option-row">
                <legend>Opción {i + 1}</legend>
                <input {...getInputProps(o.uuid, { type: "hidden" })} />
                <TextField field={o.title} label={`Nombre de la opción ${i + 1}`} />
                <TextField field={o.actual_price} label={`Precio de oferta ${i + 1} (€)`} inputMode="decimal" />
                <TextField field={o.regular_price} label={`Precio habitual ${i + 1} (€)`} inputMode="decimal" />
                <TextField field={o.available} label={`Entradas a la venta ${i + 1}`} inputMode="numeric" />
                <TextField field={o.per_customer} label={`Máximo por cliente ${i + 1}`} inputMode="numeric" />
              </fieldset>
            );
          })}
        </fieldset>
        <button type="submit" className="btn btn-large">
          {offer ? "Guardar cambios" : "Crear oferta"}
        </button>
      </Form>

      {offer ? (
        <section className="portal-section" aria-labelledby="images-title">
          <h2 id="images-title">Imágenes</h2>
          <p className="field-hint">
            Hasta {MAX_IMAGES_PER_OFFER} imágenes por oferta; esta tiene {offer.images.length}.
          </p>
          <ul className="image-list">
            {offer.images.map((img) => (
              <li key={img.uuid}>
                <img
                  src={img.variants[1]?.url ?? img.image_url}
                  alt={img.alt}
                  width={img.variants[1]?.width ?? img.width}
                  height={img.variants[1]?.height ?? img.height}
                  loading="lazy"
                />
                <span className="small">{img.cover ? "Portada" : img.logo ? "Logotipo" : "Galería"}</span>
                <div className="row-actions">
                  {!img.cover && !img.logo ? (
                    <IntentButton intent="image-cover" field={{ image: img.uuid }} className="btn btn-small btn-secondary" inline>
                      Usar como portada
                    </IntentButton>
                  ) : null}
                  <IntentButton intent="image-delete" field={{ image: img.uuid }} className="btn btn-small btn-secondary" inline>
                    Borrar
                  </IntentButton>
                </div>
              </li>
            ))}
          </ul>
          {offer.images.length >= MAX_IMAGES_PER_OFFER ? (
            <p>Has llegado al máximo de imágenes de una oferta: borra alguna para subir otra.</p>
          ) : (
            <Form method="post" encType="multipart/form-data" className="stack-form">
              <input type="hidden" name="intent" value="upload" />
              <div className="form-grid">
                <div className="field">
                  <label htmlFor="image-file">Imagen (JPEG, PNG o WebP, hasta 5 MB)</label>
                  <input id="image-file" name="image" type="file" accept="image/jpeg,image/png,image/webp" required />
                </div>
                <div className="field">
                  <label htmlFor="image-role">Uso</label>
                  <select id="image-role" name="role" defaultValue={offer.images.some((i) => i.cover) ? "photo" : "cover"}>
                    <option value="cover">Portada</option>
                    <option value="photo">Galería</option>
                    <option value="logo">Logotipo</option>
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="image-alt">Descripción de la imagen</label>
                  <input id="image-alt" name="alt" type="text" maxLength={200} />
                </div>
              </div>
              <button type="submit" className="btn btn-secondary">
                Subir imagen
              </button>
            </Form>
          )}
        </section>
      ) : null}
    </section>
  );
}
