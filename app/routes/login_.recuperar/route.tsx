import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { LOGIN_CODE_MINUTES, PASSWORD_MIN_LENGTH } from "#rules/accounts";
import { forgotPasswordSchema, resetPasswordSchema } from "#app/routes/login/schema";
import { SubmitButton, useStepForm } from "#app/routes/login/auth-form";
import { CodeField, EmailStepField, FormError, TextField } from "#app/components/form-field";
import { Honeypot } from "#app/components/honeypot";
import { ApiError, authApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { readForm } from "#app/forms/form.server";
import { attempt, completeLogin, loginRedirectTo, pendingLoginEmail, takeMailedEmail } from "#app/routes/login/login.server";
import { seo } from "#app/document/seo";
import { commitSession, flash, getSession } from "#app/state/session.server";
import { countOf } from "#rules/plurals";

export const meta: MetaFunction = () =>
  seo({ title: "Recuperar la contraseña", description: "Elige una contraseña nueva con un código por correo.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  const fromMail = await takeMailedEmail(request, session, "password-reset");
  if (fromMail) return fromMail;
  const url = new URL(request.url);
  const email = pendingLoginEmail(session);
  const step = url.searchParams.get("paso") === "codigo" ? "reset" : "forgot";
  return data(
    { redirectTo, step, email, minutes: LOGIN_CODE_MINUTES, minLength: PASSWORD_MIN_LENGTH },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const here = (redirectTo: string, params: Record<string, string> = {}) =>
  `/login/recuperar?${new URLSearchParams({ ...params, redirectTo })}`;

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request, { honeypot: true });
  const redirectTo = loginRedirectTo(request, formData);
  const session = await getSession(request);
  if (formData.get("intent") === "reset") {
    const submission = parseWithZod(formData, { schema: resetPasswordSchema });
    const secret = ["code", "new_password", "re_new_password"];
    if (submission.status !== "success") return data(submission.reply({ hideFields: secret }), { status: 400 });
    const { email, code, new_password, re_new_password } = submission.value;
    const reset = await attempt(
      submission,
      () => authApi.resetPasswordConfirm({ email, token: code, new_password, re_new_password }, request),
      secret,
    );
    if ("reply" in reset) return reset.reply;
    // The new password logs the person in; if that fails (an account blocked by staff), the login
    // page says so with the new password in hand.
    try {
      const pair = await authApi.create(email, new_password, request);
      return await completeLogin(request, session, pair, redirectTo, "Has cambiado tu contraseña y has iniciado sesión.");
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      flash(session, { type: "success", text: "Has cambiado tu contraseña. Ya puedes entrar con ella." });
      return redirect(`/login?${new URLSearchParams({ metodo: "contrasena", redirectTo })}`, {
        status: 303,
        headers: { "Set-Cookie": await commitSession(session) },
      });
    }
  }
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const sent = await attempt(submission, () => authApi.resetPassword(submission.value.email, request));
  if ("reply" in sent) return sent.reply;
  session.set("loginEmail", submission.value.email);
  return redirect(here(redirectTo, { paso: "codigo" }), { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
}

function ForgotStep() {
  const { redirectTo, email } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("forgot", forgotPasswordSchema, "forgot");
  return (
    <Form method="post" className="auth-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="forgot" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError form={form} />
      <TextField
        field={fields.email}
        label="Correo electrónico"
        type="email"
        autoComplete="email"
        defaultValue={fields.email.initialValue ?? email ?? ""}
      />
      <Honeypot />
      <SubmitButton label="Enviar código" action="/login/recuperar" />
    </Form>
  );
}

function ResetStep() {
  const { redirectTo, email, minutes, minLength } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("reset", resetPasswordSchema, "reset");
  return (
    <>
      {email ? (
        <p className="notice" role="status">
          Si <strong>{email}</strong> tiene una cuenta, le hemos enviado un código. Caduca en {countOf(minutes, "minuto", "minutos")}.
        </p>
      ) : null}
      <Form method="post" className="auth-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="reset" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError form={form} />
        <EmailStepField field={fields.email} email={email} />
        <CodeField field={fields.code} />
        <TextField
          field={fields.new_password}
          label="Contraseña nueva"
          type="password"
          autoComplete="new-password"
          hint={`Al menos ${countOf(minLength, "carácter", "caracteres")}.`}
        />
        <TextField field={fields.re_new_password} label="Repite la contraseña nueva" type="password" autoComplete="new-password" />
        <Honeypot />
        <SubmitButton label="Cambiar la contraseña" action="/login/recuperar" />
      </Form>
      <p>
        <Link to={here(redirectTo)}>Pedir otro código</Link>
      </p>
    </>
  );
}

export default function RecoverPassword() {
  const { redirectTo, step } = useLoaderData<typeof loader>();
  return (
    <section className="narrow auth-page">
      <h1>Recuperar la contraseña</h1>
      <p className="muted">
        {step === "reset"
          ? "Escribe el código del correo y elige una contraseña nueva."
          : "Te enviaremos un código por correo para que elijas una contraseña nueva."}
      </p>
      {step === "reset" ? <ResetStep /> : <ForgotStep />}
      <p className="auth-alternatives">
        <Link to={`/login?${new URLSearchParams({ metodo: "contrasena", redirectTo })}`}>Volver a entrar con contraseña</Link>
        {" · "}
        <Link to={`/login?${new URLSearchParams({ redirectTo })}`}>Entrar con un código por correo</Link>
      </p>
    </section>
  );
}
