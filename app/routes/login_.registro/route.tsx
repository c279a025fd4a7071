import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { LOGIN_CODE_MINUTES, PASSWORD_MIN_LENGTH } from "#rules/accounts";
import { activationSchema, registerSchema, resendSchema } from "#app/routes/login/schema";
import { SubmitButton, useStepForm } from "#app/routes/login/auth-form";
import { CodeField, EmailStepField, FormError, TextField } from "#app/components/form-field";
import { Captcha } from "#app/components/captcha";
import { Honeypot } from "#app/components/honeypot";
import { authApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { captchaFields, captchaSiteKey } from "#app/forms/captcha.server";
import { readForm } from "#app/forms/form.server";
import { attempt, completeLogin, loginRedirectTo, pendingLoginEmail, takeMailedEmail } from "#app/routes/login/login.server";
import { seo } from "#app/document/seo";
import { commitSession, field, flash, getSession } from "#app/state/session.server";
import { countOf } from "#rules/plurals";

export const meta: MetaFunction = () =>
  seo({ title: "Crear una cuenta", description: "Crea tu cuenta de ofertas con correo y contraseña.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  const fromMail = await takeMailedEmail(request, session, "activation");
  if (fromMail) return fromMail;
  const url = new URL(request.url);
  const step = url.searchParams.get("paso") === "activar" ? "activate" : "register";
  return data(
    {
      redirectTo,
      step,
      email: pendingLoginEmail(session),
      minutes: LOGIN_CODE_MINUTES,
      minLength: PASSWORD_MIN_LENGTH,
      captchaSiteKey: captchaSiteKey(),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const here = (redirectTo: string, params: Record<string, string> = {}) =>
  `/login/registro?${new URLSearchParams({ ...params, redirectTo })}`;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { honeypot: true });
  const redirectTo = loginRedirectTo(request, formData);
  const session = await getSession(request);
  switch (formData.get("intent")) {
    case "activate": {
      const submission = parseWithZod(formData, { schema: activationSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const { email, code } = submission.value;
      const registration = field(session, "registration");
      const ticket = registration?.email === email ? registration.token : undefined;
      const activated = await attempt(submission, () => authApi.activate(email, code, request, ticket), ["code"]);
      if ("reply" in activated) return activated.reply;
      session.unset("registration");
      // Only the browser that chose the password keeps it: whoever registers an address is not
      // known to own it until its code comes back, and that may be someone else.
      const welcome = activated.ok.has_password
        ? "Tu cuenta está activada. ¡Bienvenido!"
        : "Tu cuenta está activada. ¡Bienvenido! La contraseña solo se guarda si activas la cuenta en el navegador donde la elegiste: entra con códigos por correo o crea una contraseña en «Mi cuenta».";
      return completeLogin(request, session, activated.ok, redirectTo, welcome);
    }
    case "resend": {
      const submission = parseWithZod(formData, { schema: resendSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const sent = await attempt(submission, () => authApi.resendActivation(submission.value.email, request));
      if ("reply" in sent) return sent.reply;
      session.set("loginEmail", submission.value.email);
      flash(session, { type: "success", text: "Te hemos enviado un código nuevo." });
      return redirect(here(redirectTo, { paso: "activar" }), { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
    }
    default: {
      const submission = parseWithZod(formData, { schema: registerSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "re_password"] }), { status: 400 });
      const { email, password, re_password } = submission.value;
      const created = await attempt(
        submission,
        () => authApi.register({ email, password, re_password, ...captchaFields(formData, email) }, request),
        ["password", "re_password"],
      );
      if ("reply" in created) return created.reply;
      session.set("loginEmail", email);
      session.set("registration", { email, token: created.ok.registration_token });
      return redirect(here(redirectTo, { paso: "activar" }), { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
    }
  }
}

function RegisterStep() {
  const { redirectTo, minLength, captchaSiteKey } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("register", registerSchema, "register");
  return (
    <Form method="post" className="auth-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError form={form} />
      <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
      <TextField
        field={fields.password}
        label="Contraseña"
        type="password"
        autoComplete="new-password"
        hint={`Al menos ${countOf(minLength, "carácter", "caracteres")}.`}
      />
      <TextField field={fields.re_password} label="Repite la contraseña" type="password" autoComplete="new-password" />
      <Captcha siteKey={captchaSiteKey} />
      <Honeypot />
      <SubmitButton label="Crear cuenta" action="/login/registro" />
    </Form>
  );
}

function ActivateStep() {
  const { redirectTo, email, minutes } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("activate", activationSchema, "activate");
  const [resendForm] = useStepForm("resend-activation", resendSchema, "resend");
  return (
    <>
      {email ? (
        <p className="notice" role="status">
          Te hemos enviado un código de activación a <strong>{email}</strong>. Caduca en {countOf(minutes, "minuto", "minutos")}.
        </p>
      ) : null}
      <Form method="post" className="auth-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="activate" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError form={form} />
        <EmailStepField field={fields.email} email={email} />
        <CodeField field={fields.code} />
        <Honeypot />
        <SubmitButton label="Activar mi cuenta" action="/login/registro" />
      </Form>
      {email ? (
        <Form method="post" className="inline-form" {...getFormProps(resendForm)}>
          <Honeypot />
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormError form={resendForm} />
          <button type="submit" className="link-button">
            Enviar otro código
          </button>
        </Form>
      ) : null}
    </>
  );
}

export default function Register() {
  const { redirectTo, step } = useLoaderData<typeof loader>();
  return (
    <section className="narrow auth-page">
      <h1>{step === "activate" ? "Activa tu cuenta" : "Crear una cuenta"}</h1>
      <p className="muted">
        {step === "activate"
          ? "Escribe el código que te hemos enviado por correo."
          : "Con una cuenta guardas tus favoritos y tienes tus pedidos y cupones en cualquier dispositivo."}
      </p>
      {step === "activate" ? <ActivateStep /> : <RegisterStep />}
      <p className="auth-alternatives">
        ¿Ya tienes cuenta? <Link to={`/login?${new URLSearchParams({ redirectTo })}`}>Entrar</Link>
      </p>
    </section>
  );
}
