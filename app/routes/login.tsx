import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { LOGIN_CODE_MINUTES } from "#lib/accounts";
import { codeStepSchema, emailStepSchema, passwordLoginSchema } from "#lib/schemas/login";
import { ApiError, authApi } from "#app/lib/api.server";
import { viewer } from "#app/lib/auth.server";
import { readForm } from "#app/lib/form.server";
import { completeLogin, loginRedirectTo } from "#app/lib/login.server";
import { seo } from "#app/lib/seo";
import { config } from "#app/lib/env.server";
import { enabledSocialProviders } from "#lib/social";
import { SocialLogin } from "#app/components/social-login";
import { commitSession, field, getSession } from "#app/lib/session.server";

export const meta: MetaFunction = () => seo({ title: "Entrar", description: "Accede a tu cuenta de ofertas.", noindex: true });

type Step = "email" | "code" | "password";

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  const url = new URL(request.url);
  const pendingEmail = field(session, "loginEmail") ?? null;
  const step: Step = url.searchParams.get("metodo") === "contrasena" ? "password" : url.searchParams.get("paso") === "codigo" && pendingEmail ? "code" : "email";
  return data({ redirectTo, step, pendingEmail, minutes: LOGIN_CODE_MINUTES, social: enabledSocialProviders(config()) }, { headers: { "Cache-Control": "private, no-store" } });
}

const here = (redirectTo: string, params: Record<string, string> = {}) => `/login?${new URLSearchParams({ ...params, redirectTo })}`;

/** Problems the API reports (a wrong code, too many tries) go to the form, not to an error page. */
async function attempt<T>(submission: { reply: (o?: { formErrors?: string[]; hideFields?: string[] }) => SubmissionResult }, run: () => Promise<T>, hideFields: string[] = []) {
  try {
    return { ok: await run() } as const;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { reply: data(submission.reply({ formErrors: [error.message], hideFields }), { status: 400 }) } as const;
    throw error;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const redirectTo = loginRedirectTo(request, formData);
  const session = await getSession(request);
  switch (formData.get("intent")) {
    case "send-code": {
      const submission = parseWithZod(formData, { schema: emailStepSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const sent = await attempt(submission, () => authApi.sendCode(submission.value.email, request));
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
      const login = await attempt(submission, () => authApi.create(submission.value.email, submission.value.password, request), ["password"]);
      if ("reply" in login) return login.reply;
      return completeLogin(request, session, login.ok, redirectTo);
    }
  }
}

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <p id={id} className="field-error">
      {errors?.[0]}
    </p>
  );
}

function FormError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="form-error" role="alert">
      {errors[0]}
    </p>
  ) : null;
}

function useLoginForm<S extends z.ZodTypeAny>(id: string, schema: S, intent: string) {
  const lastResult = useActionData<typeof action>();
  return useForm<z.input<S>>({
    id,
    // Each step's form only takes back the answer to its own submission.
    lastResult: lastResult && "initialValue" in lastResult && (lastResult.initialValue as { intent?: string } | null)?.intent === intent ? lastResult : undefined,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

function EmailStep() {
  const { redirectTo, pendingEmail } = useLoaderData<typeof loader>();
  const [form, fields] = useLoginForm("login-email", emailStepSchema, "send-code");
  return (
    <Form method="post" className="auth-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="send-code" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError id={form.errorId} errors={form.errors} />
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input {...getInputProps(fields.email, { type: "email" })} defaultValue={fields.email.initialValue ?? pendingEmail ?? ""} autoComplete="email" />
        <small className="muted">Te enviaremos un código de 6 cifras. Si aún no tienes cuenta, la crearemos al entrar.</small>
        <FieldError id={fields.email.errorId} errors={fields.email.errors} />
      </div>
      <SubmitButton label="Enviar código" />
    </Form>
  );
}

function CodeStep() {
  const { redirectTo, pendingEmail, minutes } = useLoaderData<typeof loader>();
  const [form, fields] = useLoginForm("login-code", codeStepSchema, "verify-code");
  return (
    <>
      <p className="notice" role="status">
        Te hemos enviado un código a <strong>{pendingEmail}</strong>. Caduca en {minutes} minutos.
      </p>
      <Form method="post" className="auth-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="verify-code" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError id={form.errorId} errors={form.errors} />
        <div className="field">
          <label htmlFor={fields.code.id}>Código de 6 cifras</label>
          <input {...getInputProps(fields.code, { type: "text" })} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} className="code-input" />
          <FieldError id={fields.code.errorId} errors={fields.code.errors} />
        </div>
        <SubmitButton label="Entrar" />
      </Form>
      <Form method="post" className="inline-form">
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
      <FormError id={form.errorId} errors={form.errors} />
      <div className="field">
        <label htmlFor={fields.email.id}>Correo electrónico</label>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        <FieldError id={fields.email.errorId} errors={fields.email.errors} />
      </div>
      <div className="field">
        <label htmlFor={fields.password.id}>Contraseña</label>
        <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
        <FieldError id={fields.password.errorId} errors={fields.password.errors} />
      </div>
      <SubmitButton label="Entrar" />
    </Form>
  );
}

function SubmitButton({ label }: { label: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");
  return (
    <button type="submit" className="btn btn-block" disabled={busy}>
      {label}
    </button>
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
      </p>
      <p>
        <Link to="/ofertas/">Seguir viendo ofertas</Link>
      </p>
    </section>
  );
}
