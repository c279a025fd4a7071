import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { formatCents } from "#rules/prices";
import { useEffect, useRef, useState } from "react";
import { checkoutFormSchema, FIELD_MESSAGES, type CheckoutForm } from "#contract/checkout";
import { TrustBox } from "#app/components/trust";
import { Honeypot } from "#app/components/honeypot";
import type { CheckoutLine } from "#app/state/checkout-lines.server";
import type { OfferTrust } from "./checkout-data.server";

function ErrorSummary({ errors, attempt }: { errors: { id: string; message: string }[]; attempt: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors.length > 0;
  // With JS there is no page load to land on it: each refused «Continuar» moves focus there
  // (after conform has focused the first invalid field).
  useEffect(() => {
    if (attempt && shown) ref.current?.focus();
  }, [attempt, shown]);
  if (!errors.length) return null;
  return (
    // autoFocus lands a no-JS page on the summary too: a #fragment in the form's action would have
    // followed the 303 of a successful post onto /order/.
    <div id="checkout-errors" className="error-summary" role="alert" tabIndex={-1} ref={ref} autoFocus>
      <h2>Revisa estos datos</h2>
      <ul>
        {errors.map((e) => (
          <li key={e.id}>
            <a href={`#${e.id}`}>{e.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

const longestMessage = (name: string) =>
  (FIELD_MESSAGES[name as keyof typeof FIELD_MESSAGES] ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");

/** The buyer's details and «Continuar»: the form the checkout's action reads. */
export function CheckoutDetailsForm({
  lines,
  wallet,
  remembered,
  payable,
  paymentMethods,
  trust,
  totalCents,
  lastResult,
}: {
  lines: CheckoutLine[];
  wallet: boolean;
  remembered: Partial<CheckoutForm> | null;
  payable: boolean;
  paymentMethods: string;
  trust: Record<string, OfferTrust>;
  totalCents: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  // Each offer's own terms, once; none at all, the user agreement's.
  const terms = [...new Set(lines.flatMap((l) => trust[l.offerUuid]?.refundTerms ?? []))];
  const navigation = useNavigation();
  const schema = checkoutFormSchema({ wallet });
  const [form, fields] = useForm<CheckoutForm>({
    id: "checkout",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: remembered ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/checkout");
  // «Continuar» presses the browser refused (conform's validation prevented the post), and answers
  // from the server: either one shows the summary.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (lastResult) setAttempt((n) => n + 1);
  }, [lastResult]);
  const formProps = getFormProps(form);
  // Always rendered, with room for the field's longest message (data-room, styles.css): a message
  // appearing on blur must not move the control the buyer is pressing at that moment.
  const errorOf = (field: { errors?: string[]; errorId: string; name: string }) => (
    <p id={field.errorId} className="field-error" data-room={longestMessage(field.name)}>
      <span>{field.errors?.[0]}</span>
    </p>
  );
  // After a «Continuar», every error at once, summarised at the top; the list follows the fields as
  // they are fixed. (conform's `fields` is a proxy: it is read by name, never enumerated.)
  const summary =
    attempt || lastResult?.error
      ? (["email", "user_fullname", "subs_agreement", "user_tax_number", "user_address"] as const).flatMap((name) => {
          const message = fields[name].errors?.[0] ?? (attempt ? undefined : lastResult?.error?.[name]?.[0]);
          return message ? [{ id: fields[name].id, message }] : [];
        })
      : [];
  const fullName = (
    <div className="field">
      <label htmlFor={fields.user_fullname.id}>Nombre completo o razón social</label>
      <input {...getInputProps(fields.user_fullname, { type: "text" })} autoComplete="name" />
      {errorOf(fields.user_fullname)}
    </div>
  );
  return (
    <Form
      method="post"
      action="/checkout/"
      className="checkout-form"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        // conform validates a field on blur by submitting the form through a hidden intent button:
        // only the buyer's own «Continuar» counts.
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (event.defaultPrevented && submitter?.getAttribute("name") !== "__intent__") setAttempt((n) => n + 1);
      }}
    >
      <ErrorSummary errors={summary} attempt={attempt} />
      {lines.map((l) =>
        l.option ? <input key={l.offerUuid} type="hidden" name={`saved_price.${l.offerUuid}`} value={l.option.actual_price} /> : null,
      )}
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        <small className="muted">Te enviaremos aquí la confirmación y los cupones.</small>
        {errorOf(fields.email)}
      </div>
      {wallet ? fullName : null}
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            id={fields.subs_agreement.id}
            name={fields.subs_agreement.name}
            // Kept after a failed submit, or the next «Continuar» would fail again for the same reason.
            defaultChecked={fields.subs_agreement.initialValue === "on"}
            required
            aria-invalid={fields.subs_agreement.errors ? true : undefined}
            aria-describedby={fields.subs_agreement.errors ? fields.subs_agreement.errorId : undefined}
          />
          <span>
            He leído y acepto el <a href="/agreement">Acuerdo De Usuario</a> y la <a href="/privacy-policy">Política de privacidad</a>.
          </span>
        </label>
        {errorOf(fields.subs_agreement)}
      </div>
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            id={fields.mail_agreement.id}
            name={fields.mail_agreement.name}
            defaultChecked={fields.mail_agreement.initialValue === "on"}
          />
          <span>
            Quiero recibir ofertas por correo (<a href="/marketing-agreement">Consentimiento comercial</a>). Puedes darte de baja en
            cualquier momento.
          </span>
        </label>
      </div>
      <div>
        <label className="checkbox">
          {/* Plain checkboxes: conform's keyed props would remount them on each validation. */}
          <input
            type="checkbox"
            id={fields.need_receipt.id}
            name={fields.need_receipt.name}
            className="need-receipt"
            defaultChecked={fields.need_receipt.initialValue === "on"}
          />
          <span>Necesito factura</span>
        </label>
      </div>
      {/* Shown by CSS when "Necesito factura" is ticked, so it needs no JavaScript. */}
      <fieldset className="receipt-fields">
        <legend>Datos de facturación</legend>
        {wallet ? null : fullName}
        <div className="field">
          <label htmlFor={fields.user_tax_number.id}>NIF, NIE o CIF</label>
          <input {...getInputProps(fields.user_tax_number, { type: "text" })} autoComplete="off" />
          {errorOf(fields.user_tax_number)}
        </div>
        <div className="field">
          <label htmlFor={fields.user_address.id}>Dirección de facturación</label>
          <input {...getInputProps(fields.user_address, { type: "text" })} autoComplete="address-line1" />
          {errorOf(fields.user_address)}
        </div>
      </fieldset>
      <Honeypot />
      {/* On phones a bar fixed at the screen's foot (checkout.css): the total and the one «Continuar». */}
      <div className="checkout-bar">
        <p className="checkout-bar-total" aria-hidden="true">
          <span>Total</span> <strong>{formatCents(totalCents)}</strong>
        </p>
        <button type="submit" className="btn btn-block btn-large" disabled={!payable || submitting}>
          {submitting ? "Comprobando…" : "Continuar"}
        </button>
      </div>
      {!payable ? <p className="field-error">Resuelve los avisos de tu carrito para continuar.</p> : null}
      <TrustBox paymentMethods={paymentMethods} refundTerms={terms} />
    </Form>
  );
}
