import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { passwordLoginSchema } from "#lib/schemas/login";
import { ApiError, authApi } from "#app/lib/api.server";
import { viewer } from "#app/lib/auth.server";
import { completeLogin, loginRedirectTo } from "#app/lib/login.server";
import { readForm } from "#app/lib/form.server";
import { seo } from "#app/lib/seo";
import { getSession } from "#app/lib/session.server";
import { skipAfterFailure } from "#app/lib/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Entrar", description: "Accede a tu cuenta de ofertas.", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const redirectTo = loginRedirectTo(request);
  if (viewer(session)) throw redirect(redirectTo);
  return data({ redirectTo }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const redirectTo = loginRedirectTo(request, formData);
  const submission = parseWithZod(formData, { schema: passwordLoginSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  try {
    const pair = await authApi.create(submission.value.email, submission.value.password, request);
    return completeLogin(request, await getSession(request), pair, redirectTo);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: 400 });
    }
    throw error;
  }
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login-password",
    lastResult,
    constraint: getZodConstraint(passwordLoginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordLoginSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");
  return (
    <section className="narrow auth-page">
      <h1>Entrar</h1>
      <p className="muted">Guarda tus favoritos y consulta tus pedidos y cupones desde cualquier dispositivo.</p>
      <Form method="post" className="auth-form" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {form.errors ? (
          <p id={form.errorId} className="form-error" role="alert">
            {form.errors[0]}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={fields.email.id}>Correo electrónico</label>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
          <p id={fields.email.errorId} className="field-error">
            {fields.email.errors?.[0]}
          </p>
        </div>
        <div className="field">
          <label htmlFor={fields.password.id}>Contraseña</label>
          <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
          <p id={fields.password.errorId} className="field-error">
            {fields.password.errors?.[0]}
          </p>
        </div>
        <button type="submit" className="btn btn-block" disabled={busy}>
          Entrar
        </button>
      </Form>
      <p>
        <Link to="/ofertas/">Seguir viendo ofertas</Link>
      </p>
    </section>
  );
}
