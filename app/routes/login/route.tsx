import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { LOGIN_CODE_MINUTES } from "#rules/accounts";
import { codeStepSchema, emailStepSchema, passwordLoginSchema } from "./schema";
import { SubmitButton, useStepForm } from "./auth-form";
import { CodeField, FieldError, FormError } from "#app/components/form-field";
import { Honeypot } from "#app/components/honeypot";
import { authApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { captchaFields, captchaSiteKey } from "#app/forms/captcha.server";
import { readForm } from "#app/forms/form.server";
import { attempt, completeLogin, loginRedirectTo } from "./login.server";
import { seo } from "#app/document/seo";
import { config } from "#app/env.server";
import { enabledSocialProviders } from "#rules/social";
import { SocialLogin } from "./social-login";
import { Captcha } from "#app/components/captcha";
import { commitSession, field, getSession } from "#app/state/session.server";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import { countOf } from "#rules/plurals";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Entrar", description: "Accede a tu cuenta de ofertas.", noindex: true });

type Step = "email" | "code" | "password";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  const url = new URL(request.url);
  const pendingEmail = field(session, "loginEmail") ?? null;
  const step: Step =
    url.searchParams.get("metodo") === "contrasena"
      ? "password"
      : url.searchParams.get("paso") === "codigo" && pendingEmail
        ? "code"
        : "email";
  return data(
    {
      redirectTo,
      step,
      pendingEmail,
      minutes: LOGIN_CODE_MINUTES,
      captchaSiteKey: captchaSiteKey(),
      social: enabledSocialProviders(config()),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const here = (redirectTo: string, params: Record<string, string> = {}) => `/login?${new URLSearchParams({ ...params, redirectTo })}`;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { honeypot: true });
  const redirectTo = loginRedirectTo(request, formData);
  const session = await getSession(request);
  switch (formData.get("intent")) {
    case "send-code": {
      const submission = parseWithZod(formData, { schema: emailStepSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const sent = await attempt(submission, () =>
        authApi.sendCode(submission.value.email, request, captchaFields(formData, submission.value.email)),
      );
      if ("reply" in sent) return sent.reply;
      session.set("loginEmail", submission.value.email);
      return redirect(here(redirectTo, { paso: "codigo" }), { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
    }
    case "verify-code": {
      const submission = parseWithZod(formData, { schema: codeStepSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const email = field(session, "loginEmail");
      if (!email) return redirect(here(redirectTo), 303);
      const login = await attempt(submission, () => authApi.otpLogin(email, submission.value.code, request), ["code"]);
      if ("reply" in login) return login.reply;
      return completeLogin(request, session, login.ok, redirectTo);
    }
    default: {
      const submission = parseWithZod(formData, { schema: passwordLoginSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
      const login = await attempt(submission, () => authApi.create(submission.value.email, submission.value.password, request), [
        "password",
      ]);
      if ("reply" in login) return login.reply;
      return completeLogin(request, session, login.ok, redirectTo);
    }
  }
}

const useLoginForm = useStepForm;

function EmailStep() {
  const { redirectTo, pendingEmail, captchaSiteKey } = useLoaderData<typeof loader>();
  const [form, fields] = useLoginForm("login-email", emailStepSchema, "send-code");
  return (
    <Form method="post" className="auth-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="send-code" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError form={form} />
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input
          {...getInputProps(fields.email, { type: "email" })}
          defaultValue={fields.email.initialValue ?? pendingEmail ?? ""}
          autoComplete="email"
        />
        <small className="muted">Te enviaremos un código de 6 cifras. Si aún no tienes cuenta, la crearemos al entrar.</small>
        <FieldError field={fields.email} />
      </div>
      <Captcha siteKey={captchaSiteKey} />
      <Honeypot />
      <SubmitButton label="Enviar código" action="/login" />
    </Form>
  );
}

function CodeStep() {
  const { redirectTo, pendingEmail, minutes } = useLoaderData<typeof loader>();
  const [form, fields] = useLoginForm("login-code", codeStepSchema, "verify-code");
  return (
    <>
      <p className="notice" role="status">
        Te hemos enviado un código a <strong>{pendingEmail}</strong>. Caduca en {countOf(minutes, "minuto", "minutos")}.
      </p>
      <Form method="post" className="auth-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="verify-code" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError form={form} />
        <CodeField field={fields.code} />
        <Honeypot />
        <SubmitButton label="Entrar" action="/login" />
      </Form>
      <Form method="post" className="inline-form">
        <Honeypot />
        <input type="hidden" name="intent" value="send-code" />
        <input type="hidden" name="email" value={pendingEmail ?? ""} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button type="submit" className="link-button">
          Enviar otro código
        </button>
      </Form>{" "}
      · <Link to={here(redirectTo)}>Usar otro correo</Link>
    </>
  );
}

function PasswordStep() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const [form, fields] = useLoginForm("login-password", passwordLoginSchema, "password");
  return (
    <Form method="post" className="auth-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="password" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError form={form} />
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        <FieldError field={fields.email} />
      </div>
      <div className="field">
        <label htmlFor={fields.password.id}>Contraseña</label>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
        <FieldError field={fields.password} />
      </div>
      <Honeypot />
      <SubmitButton label="Entrar" action="/login" />
      <p>
        <Link to={`/login/recuperar?${new URLSearchParams({ redirectTo })}`}>¿Has olvidado tu contraseña?</Link>
      </p>
    </Form>
  );
}

export default function Login() {
  const { redirectTo, step, social } = useLoaderData<typeof loader>();
  return (
    <section className="narrow auth-page">
      <h1>Entrar</h1>
      <p className="muted">Guarda tus favoritos y consulta tus pedidos y cupones desde cualquier dispositivo.</p>
      {step === "email" ? <EmailStep /> : step === "code" ? <CodeStep /> : <PasswordStep />}
      {step !== "code" ? <SocialLogin providers={social} redirectTo={redirectTo} /> : null}
      <p className="auth-alternatives">
        {step === "password" ? (
          <Link to={here(redirectTo)}>Entrar con un código por correo</Link>
        ) : (
          <Link to={here(redirectTo, { metodo: "contrasena" })}>Entrar con contraseña</Link>
        )}
        {" · "}
        <Link to={`/login/registro?${new URLSearchParams({ redirectTo })}`}>Crear una cuenta con contraseña</Link>
      </p>
      <p>
        <Link to="/ofertas/" className="standalone-link">
          Seguir viendo ofertas
        </Link>
      </p>
    </section>
  );
}
