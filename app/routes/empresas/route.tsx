import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { CATEGORY_IDS, CATEGORY_LABELS } from "#rules/categories";
import { REGIONS } from "#rules/regions";
import { BecomePartnerSchema, HONEYPOT_FIELD } from "#contract/partner";
import { partnerSalesRoutes } from "#contract/partner-sales";
import { FormError, SelectField, TextAreaField, TextField } from "#app/components/form-field";
import { ApiError, call } from "#app/api-client/client.server";
import { readForm } from "#app/forms/form.server";
import { Captcha } from "#app/components/captcha";
import { captchaFields, captchaSiteKey } from "#app/forms/captcha.server";
import { redirectWithToast } from "#app/state/session.server";
import { seo } from "#app/document/seo";

export const meta: MetaFunction = () =>
  seo({
    title: "Publica tu oferta",
    description: "Llega a miles de clientes de tu provincia: publica tu oferta en ofertas y cobra solo por lo que vendes.",
  });

const categoryOptions = CATEGORY_IDS.map((id) => ({ value: id, label: CATEGORY_LABELS[id] }));
const provinceOptions = REGIONS.map((r) => ({ value: r.value, label: r.label }));

export const loader = () => ({ captchaSiteKey: captchaSiteKey() });

/** «Publica tu oferta»: the API stores the lead and mails both sides; this page only relays it. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: BecomePartnerSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await call(partnerSalesRoutes.becomePartner, {
      body: { ...submission.value, ...captchaFields(formData, submission.value.email) },
      request,
    });
  } catch (error) {
    // 503: the captcha provider is down and the form fails closed; its message says so.
    if (error instanceof ApiError && (error.status < 500 || error.status === 503)) {
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    }
    throw error;
  }
  return redirectWithToast(
    "/empresas?enviado=1#publica",
    { type: "success", text: "¡Gracias! Hemos recibido tu solicitud y te escribiremos muy pronto." },
    request,
  );
}

const BENEFITS = [
  {
    title: "Clientes nuevos cerca de ti",
    text: "Tu oferta aparece a quien busca planes en tu provincia y en tu categoría, en la web y en el correo semanal.",
  },
  {
    title: "Sin cuotas fijas",
    text: "Publicar es gratis. Solo cobramos una comisión por cada cupón vendido, y te pagamos lo vendido cada mes.",
  },
  {
    title: "Canjea en segundos",
    text: "Desde el móvil, en tu portal de socio: escribe el código o escanea el QR del cupón y verás al momento si es válido.",
  },
  { title: "Tú decides", text: "Precio, número de entradas, máximo por cliente y fechas. Puedes pausar la oferta cuando lo necesites." },
];

export default function Empresas() {
  const lastResult = useActionData<typeof action>();
  const { captchaSiteKey: siteKey } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "become-partner",
    lastResult,
    constraint: getZodConstraint(BecomePartnerSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BecomePartnerSchema }),
  });
  const sent = params.get("enviado") === "1";
  return (
    <div className="business-page">
      <section className="business-hero">
        <h1>Llena tu negocio con ofertas</h1>
        <p className="lead">
          Restaurantes, spas, ocio, viajes o formación: publica una oferta irresistible y llega a miles de clientes que ya buscan planes en
          tu provincia.
        </p>
        <a href="#publica" className="btn btn-large">
          Publica tu oferta
        </a>
      </section>

      <section aria-labelledby="por-que">
        <h2 id="por-que">¿Por qué publicar en ofertas?</h2>
        <ul className="benefits">
          {BENEFITS.map((b) => (
            <li key={b.title}>
              <h3>{b.title}</h3>
              <p>{b.text}</p>
            </li>
          ))}
        </ul>
        <h2>Cómo funciona</h2>
        <ol className="steps">
          <li>Nos cuentas tu negocio con este formulario.</li>
          <li>Te llamamos, preparamos juntos la oferta y la revisamos antes de publicarla.</li>
          <li>Tus clientes compran el cupón y lo canjean en tu local; tú lo validas desde el móvil.</li>
        </ol>
      </section>

      <section id="publica" className="business-form-section" aria-labelledby="publica-titulo">
        <h2 id="publica-titulo">Publica tu oferta</h2>
        {sent ? (
          <p className="notice notice-success" role="status">
            ¡Gracias! Hemos recibido tu solicitud. Te hemos enviado una confirmación por correo y te llamaremos en uno o dos días
            laborables.
          </p>
        ) : null}
        <Form method="post" action="/empresas" className="stack-form" {...getFormProps(form)}>
          <FormError form={form} />
          <div className="form-grid">
            <TextField field={fields.business_name} label="Nombre del negocio" autoComplete="organization" />
            <TextField field={fields.contact_name} label="Tu nombre" autoComplete="name" />
            <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
            <TextField field={fields.phone} label="Teléfono" type="tel" autoComplete="tel" />
            <SelectField field={fields.province} label="Provincia" options={provinceOptions} placeholder="Elige una provincia" />
            <SelectField field={fields.category} label="Categoría" options={categoryOptions} placeholder="Elige una categoría" />
          </div>
          <TextAreaField field={fields.message} label="¿Qué te gustaría ofrecer? (opcional)" />
          {/* Hidden from people and from assistive technology; bots fill it in. */}
          <div className="hp-field" aria-hidden="true">
            <label htmlFor="become-partner-website">No rellenes este campo</label>
            <input id="become-partner-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
          </div>
          <Captcha siteKey={siteKey} />
          <button
            type="submit"
            className="btn btn-large"
            disabled={navigation.state === "submitting" && navigation.formAction === "/empresas"}
          >
            Enviar solicitud
          </button>
          <p className="muted small">Usaremos tus datos solo para contactarte sobre tu oferta. Consulta la política de privacidad.</p>
        </Form>
      </section>
    </div>
  );
}
