import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { passwordLoginSchema } from "#lib/schemas/login";
import { ApiError, authApi } from "#app/lib/api.server";
import { viewer } from "#app/lib/auth.server";
import { readForm } from "#app/lib/form.server";
import { completeLogin, loginRedirectTo } from "#app/lib/login.server";
import { seo } from "#app/lib/seo";
import { getSession } from "#app/lib/session.server";

export const meta: MetaFunction = () => seo({ title: "Entrar", description: "Accede a tu cuenta de ofertas.", noindex: true });


export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  return data({ redirectTo }, { headers: { "Cache-Control": "private, no-store" } });
}


/** Problems the API reports (wrong password, too many tries) go to the form, not to an error page. */
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
  const submission = parseWithZod(formData, { schema: passwordLoginSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const login = await attempt(submission, () => authApi.create(submission.value.email, submission.value.password, request), ["password"]);
  if ("reply" in login) return login.reply;
  return completeLogin(request, session, login.ok, redirectTo);
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

  return (
    <section className="narrow auth-page">
      <h1>Entrar</h1>
      <p className="muted">Guarda tus favoritos y consulta tus pedidos y cupones desde cualquier dispositivo.</p>
      <PasswordStep />
      <p>
        <Link to="/ofertas/">Seguir viendo ofertas</Link>
      </p>
    </section>
  );
}
