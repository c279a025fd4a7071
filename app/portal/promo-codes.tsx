import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate } from "#rules/dates";
import { DISCOUNT_TYPE_LABELS, DISCOUNT_TYPES, formatPrice, type DiscountType } from "#rules/prices";
import { PromoCodeSchema } from "#contract/partner";
import type { PromoCodeRecord } from "#contract/partner-responses";
import type { promoCodeLoader, promoCodesLoader } from "#app/portal/promo-codes.server";
import { ConfirmDelete } from "./confirm-delete";
import { DataTable } from "./data-table";
import { OfferChoiceSearch } from "./offer-search";
import { FormError, SelectField, TextField } from "#app/components/form-field";
import { countOf } from "#rules/plurals";

type Choice = { value: string; label: string };

const discountOptions = DISCOUNT_TYPES.map((t) => ({ value: t, label: DISCOUNT_TYPE_LABELS[t] }));

/** "20 %", "5,00 € por entrada", "precio 9,90 €": the discount as a buyer would read it. */
export function discountText(code: Pick<PromoCodeRecord, "discount_type" | "discount_value">): string {
  const type = code.discount_type as DiscountType;
  if (type === "percent") return `${Number(code.discount_value)} %`;
  if (type === "amount") return `${formatPrice(code.discount_value)} por entrada`;
  return `precio ${formatPrice(code.discount_value)}`;
}

function validity(code: PromoCodeRecord): string {
  if (code.valid_from && code.valid_until)
    return `${formatDate(code.valid_from, "dd/MM/yyyy")} – ${formatDate(code.valid_until, "dd/MM/yyyy")}`;
  if (code.valid_until) return `hasta ${formatDate(code.valid_until, "dd/MM/yyyy")}`;
  if (code.valid_from) return `desde ${formatDate(code.valid_from, "dd/MM/yyyy")}`;
  return "sin límite";
}

/**
 * The one form for a promo code, for partners and staff alike. `shopWide` (staff) offers «Toda la
 * tienda»; a partner must bind the code to one of its offers (the API says so too).
 */
export function PromoCodeForm({
  code,
  offers,
  shopWide,
  lastResult,
}: {
  code: PromoCodeRecord | null;
  offers: Choice[];
  shopWide: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: code ? `promo-${code.uuid}` : "promo-new",
    lastResult,
    constraint: getZodConstraint(PromoCodeSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      code: code?.code ?? "",
      discount_type: code?.discount_type ?? "percent",
      discount_value: code?.discount_value ?? "",
      valid_from: code?.valid_from?.slice(0, 10) ?? "",
      valid_until: code?.valid_until?.slice(0, 10) ?? "",
      max_uses: code?.max_uses?.toString() ?? "",
      per_customer_limit: code?.per_customer_limit?.toString() ?? "",
      offer: code?.offer ?? "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PromoCodeSchema }),
  });
  return (
    <Form method="post" className="stack-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      <FormError form={form} />
      <div className="form-grid">
        <TextField
          field={fields.code}
          label="Código"
          autoCapitalize="characters"
          hint="Letras sin acentos, números, - o _. Por ejemplo VERANO10."
        />
        <SelectField
          field={fields.offer}
          label="Oferta"
          options={offers}
          placeholder={shopWide ? "Toda la tienda" : "Elige una de tus ofertas"}
        />
        <SelectField field={fields.discount_type} label="Tipo de descuento" options={discountOptions} />
        <TextField
          field={fields.discount_value}
          label="Valor del descuento"
          inputMode="decimal"
          hint="Porcentaje (1 a 100) o euros, según el tipo."
        />
        <TextField field={fields.valid_from} label="Válido desde" type="date" />
        <TextField field={fields.valid_until} label="Válido hasta" type="date" />
        <TextField field={fields.max_uses} label="Usos en total" inputMode="numeric" pattern="[0-9]*" hint="En blanco: sin límite." />
        <TextField
          field={fields.per_customer_limit}
          label="Usos por cliente"
          inputMode="numeric"
          pattern="[0-9]*"
          hint="En blanco: sin límite."
        />
      </div>
      <div className="row-actions">
        <button type="submit" className="btn">
          {code ? "Guardar cambios" : "Crear código"}
        </button>
      </div>
    </Form>
  );
}

export function PromoCodeTable({ codes, base }: { codes: PromoCodeRecord[]; base: string }) {
  if (codes.length === 0) return <p className="empty-state">Todavía no hay códigos promocionales.</p>;
  return (
    <DataTable
      caption="Códigos promocionales"
      rows={codes}
      rowKey={(c) => c.uuid}
      columns={[
        { header: "Código", cell: (c) => <strong className="mono">{c.code}</strong> },
        { header: "Descuento", cell: discountText },
        { header: "Oferta", cell: (c) => c.offer_title ?? "Toda la tienda" },
        { header: "Validez", cell: validity },
        {
          header: "Usos",
          cell: (c) => (
            <>
              {c.used_count}
              {c.max_uses ? ` de ${c.max_uses}` : ""}
              {c.per_customer_limit ? ` (${c.per_customer_limit} por cliente)` : ""}
            </>
          ),
        },
        {
          header: "Acciones",
          cell: (c) => (
            <div className="row-actions">
              <Link to={`${base}/${c.uuid}`} className="btn btn-small btn-secondary" aria-label={`Editar ${c.code}`}>
                Editar
              </Link>
              <Link to={`${base}/${c.uuid}?borrar`} className="btn btn-small btn-secondary" aria-label={`Borrar ${c.code}`}>
                Borrar
              </Link>
            </div>
          ),
        },
      ]}
    />
  );
}

/** The list and the «Crear código» form (/socios/codigos and /admin/codigos). */
export function PromoCodesPage({ base, intro }: { base: string; intro: string }) {
  const { codes, offers, offerCount, offersListed, offerSearch, shopWide } = useLoaderData<typeof promoCodesLoader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  return (
    <section className="portal-section">
      <div className="portal-head">
        <h1>Códigos promocionales</h1>
        <a href="#crear-codigo" className="btn btn-secondary">
          Nuevo código
        </a>
      </div>
      <p className="muted">{intro}</p>
      <PromoCodeTable codes={codes} base={base} />
      <section className="buy-box" aria-labelledby="crear-codigo">
        <h2 id="crear-codigo" style={{ margin: 0 }}>
          Crear un código
        </h2>
        {offerCount === 0 && !offerSearch && !shopWide ? (
          <p className="empty-state">Crea primero una oferta: cada código va ligado a una de tus ofertas.</p>
        ) : (
          <>
            <OfferChoiceSearch shown={offersListed} count={offerCount} search={offerSearch} />
            <PromoCodeForm code={null} offers={offers} shopWide={shopWide} lastResult={lastResult} />
          </>
        )}
      </section>
    </section>
  );
}

/** One code: edit it, or (?borrar) confirm its deletion first. */
export function PromoCodePage({ base }: { base: string }) {
  const { code, offers, offerCount, offersListed, offerSearch, shopWide, confirmDelete } = useLoaderData<typeof promoCodeLoader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  return (
    <section className="portal-section">
      <p className="breadcrumbs">
        <Link to={base}>Códigos promocionales</Link> › {code.code}
      </p>
      <h1>Código {code.code}</h1>
      <p className="muted">
        {discountText(code)} · {code.offer_title ?? "Toda la tienda"} · usado {countOf(code.used_count, "vez", "veces")}
      </p>
      {confirmDelete ? (
        <ConfirmDelete
          question={`¿Borrar el código ${code.code}?`}
          detail={
            code.used_count > 0
              ? "Ya se ha usado: el borrado se rechazará. Pon una fecha de fin en su lugar."
              : "Dejará de funcionar en el checkout. No se puede deshacer."
          }
          cancelTo={`${base}/${code.uuid}`}
          confirmLabel="Sí, borrar el código"
        />
      ) : (
        <p>
          <Link to="?borrar" className="btn btn-small btn-secondary">
            Borrar este código
          </Link>
        </p>
      )}
      <div className="buy-box">
        <OfferChoiceSearch shown={offersListed} count={offerCount} search={offerSearch} />
        <PromoCodeForm code={code} offers={offers} shopWide={shopWide} lastResult={lastResult} />
      </div>
    </section>
  );
}
