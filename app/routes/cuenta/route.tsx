import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { LOGIN_CODE_MINUTES, PASSWORD_MIN_LENGTH } from "#rules/accounts";
import {
  confirmEmailSchema,
  deleteAccountSchema,
  endOtherSessionsSchema,
  endSessionSchema,
  setEmailSchema,
  setPasswordSchema,
  subscribeSchema,
  unsubscribeSchema,
} from "./schema";
import { formatDateTime } from "#rules/dates";
import { SubmitButton, useAnswered, useStepForm } from "#app/routes/login/auth-form";
import { CodeField, FieldError, FormError, TextField } from "#app/components/form-field";
import { ApiError, authApi } from "#app/api-client/client.server";
import { clearAuth, setAuth, viewer } from "#app/state/auth.server";
import { readForm } from "#app/forms/form.server";
import { attempt, isSessionGone, sessionEnded } from "#app/routes/login/login.server";
import { commitSession, field, flash, getSession } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { countOf } from "#rules/plurals";

export const meta: MetaFunction = () => seo({ title: "Mi cuenta", description: "Tu cuenta de ofertas.", noindex: true });

const LOGIN = "/login?redirectTo=%2Fcuenta";
const DEVICES = "/cuenta#account-devices";

/** A session that is not there to end (ended meanwhile, or never this account's) is no failure. */
const notFoundAsFalse = (error: unknown) => {
  if (error instanceof ApiError && error.status === 404) return false;
  throw error;
};

/** The account's data; a session the API no longer accepts (ended, or the account gone) logs in again. */
async function account<T>(request: Request, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isSessionGone(error) || (error instanceof ApiError && error.status === 404)) return sessionEnded(request, LOGIN);
    throw error;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  if (!viewer(session)) throw redirect(LOGIN);
  const [me, { subscribed }, sessions] = await account(request, () =>
    Promise.all([authApi.me(request), authApi.subscription(request), authApi.sessions(request)]),
  );
  const paso = new URL(request.url).searchParams.get("paso");
  const newEmail = field(session, "newEmail") ?? null;
  const step = paso === "eliminar" ? "delete" : paso === "confirmar-correo" && newEmail ? "confirm-email" : "account";
  return data(
    { me, subscribed, sessions, step, newEmail, minutes: LOGIN_CODE_MINUTES, minLength: PASSWORD_MIN_LENGTH },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const session = await getSession(request);
  if (!viewer(session)) throw redirect(LOGIN);
  const done = async (text: string, to = "/cuenta") => {
    flash(session, { type: "success", text });
    return redirect(to, { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
  };
  switch (formData.get("intent")) {
    case "set-email": {
      const submission = parseWithZod(formData, { schema: setEmailSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["current_password"] }), { status: 400 });
      const { new_email, current_password } = submission.value;
      const sent = await attempt(submission, () => authApi.setEmail({ new_email, re_new_email: new_email, current_password }, request), [
        "current_password",
      ]);
      if ("reply" in sent) return sent.reply;
      session.set("newEmail", new_email);
      return redirect("/cuenta?paso=confirmar-correo", { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
    }
    case "confirm-email": {
      const submission = parseWithZod(formData, { schema: confirmEmailSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const newEmail = field(session, "newEmail");
      if (!newEmail) return redirect("/cuenta", 303);
      const me = await account(request, () => authApi.me(request));
      const changed = await attempt(
        submission,
        () => authApi.confirmEmail({ uid: me.id, token: submission.value.code, new_email: newEmail, re_new_email: newEmail }, request),
        ["code"],
      );
      if ("reply" in changed) return changed.reply;
      // A code that proved only the account (202) leaves the address as it was: its sentence says what next.
      if (!("access" in changed.ok)) return data(submission.reply({ formErrors: [changed.ok.detail] }), { status: 400 });
      // The old tokens were revoked with the old address; the new pair carries the new one.
      setAuth(session, changed.ok);
      session.unset("newEmail");
      return done(`Tu correo ahora es ${newEmail}.`);
    }
    case "set-password": {
      const submission = parseWithZod(formData, { schema: setPasswordSchema });
      const secret = ["current_password", "new_password", "re_new_password"];
      if (submission.status !== "success") return data(submission.reply({ hideFields: secret }), { status: 400 });
      const { current_password, new_password, re_new_password } = submission.value;
      const saved = await attempt(
        submission,
        () => authApi.setPassword({ current_password, new_password, re_new_password }, request),
        secret,
      );
      if ("reply" in saved) return saved.reply;
      // Every session of the account ended with the change; this browser carries on with the new pair.
      setAuth(session, saved.ok);
      return done("Hemos guardado tu contraseña. Hemos cerrado la sesión en los demás dispositivos.");
    }
    case "subscribe": {
      const submission = parseWithZod(formData, { schema: subscribeSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const saved = await attempt(submission, () => authApi.setSubscription(true, request));
      if ("reply" in saved) return saved.reply;
      return done("Te enviaremos nuestras ofertas por correo.");
    }
    case "unsubscribe": {
      const submission = parseWithZod(formData, { schema: unsubscribeSchema });
      if (submission.status !== "success") return data(submission.reply(), { status: 400 });
      const saved = await attempt(submission, () => authApi.setSubscription(false, request));
      if ("reply" in saved) return saved.reply;
      return done("Te has dado de baja: ya no recibirás nuestras ofertas por correo.");
    }
    case "end-session": {
      const submission = parseWithZod(formData, { schema: endSessionSchema });
      if (submission.status !== "success") return redirect("/cuenta", 303);
      const ended = await account(request, () => authApi.endSession(submission.value.session, request).then(() => true, notFoundAsFalse));
      return done(ended ? "Hemos cerrado esa sesión." : "Esa sesión ya estaba cerrada.", DEVICES);
    }
    case "end-other-sessions": {
      if (parseWithZod(formData, { schema: endOtherSessionsSchema }).status !== "success") return redirect("/cuenta", 303);
      const { ended } = await account(request, () => authApi.endOtherSessions(request));
      return done(
        ended ? "Hemos cerrado la sesión en los demás dispositivos." : "No había sesiones abiertas en otros dispositivos.",
        DEVICES,
      );
    }
    case "delete": {
      const submission = parseWithZod(formData, { schema: deleteAccountSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["current_password"] }), { status: 400 });
      const deleted = await attempt(submission, () => authApi.deleteMe(submission.value.current_password, request), ["current_password"]);
      if ("reply" in deleted) return deleted.reply;
      clearAuth(session);
      return done("Hemos eliminado tu cuenta. Tus compras se conservan sin tus datos personales.", "/");
    }
    default:
      return redirect("/cuenta", 303);
  }
}

function EmailSection() {
  const { me, step, newEmail, minutes } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("cuenta-email", setEmailSchema, "set-email");
  const answeredEmail = useAnswered("set-email");
  const [confirm, confirmFields] = useStepForm("cuenta-email-code", confirmEmailSchema, "confirm-email");
  return (
    <section aria-labelledby="account-email" className="account-section">
      <h2 id="account-email">Correo electrónico</h2>
      <p>
        <strong data-testid="account-email">{me.email}</strong>
      </p>
      {step === "confirm-email" ? (
        <>
          <p className="notice" role="status">
            Te hemos enviado un código a <strong>{newEmail}</strong>. Caduca en {countOf(minutes, "minuto", "minutos")}.
          </p>
          <Form method="post" className="auth-form" {...getFormProps(confirm)}>
            <input type="hidden" name="intent" value="confirm-email" />
            <FormError form={confirm} />
            <CodeField field={confirmFields.code} />
            <SubmitButton label="Confirmar el nuevo correo" action="/cuenta" className="btn" />
          </Form>
          <Link to="/cuenta">Cancelar</Link>
        </>
      ) : (
        <details open={answeredEmail}>
          <summary>Cambiar el correo</summary>
          <Form method="post" className="auth-form" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="set-email" />
            <FormError form={form} />
            <TextField
              field={fields.new_email}
              label="Correo nuevo"
              type="email"
              autoComplete="email"
              hint="Te enviaremos un código a esa dirección para confirmarla."
            />
            {me.has_password ? (
              <TextField field={fields.current_password} label="Tu contraseña actual" type="password" autoComplete="current-password" />
            ) : null}
            <SubmitButton label="Enviar código" action="/cuenta" className="btn" />
          </Form>
        </details>
      )}
    </section>
  );
}

function PasswordSection() {
  const { me, minLength } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("cuenta-password", setPasswordSchema, "set-password");
  const answeredPassword = useAnswered("set-password");
  const title = me.has_password ? "Cambiar la contraseña" : "Crear contraseña";
  return (
    <section aria-labelledby="account-password" className="account-section">
      <h2 id="account-password">Contraseña</h2>
      <p className="muted">
        {me.has_password
          ? "Entras con tu contraseña o con un código por correo."
          : "Entras con un código por correo. Si quieres, crea una contraseña para entrar también con ella."}
      </p>
      <details open={answeredPassword}>
        <summary>{title}</summary>
        <Form method="post" className="auth-form" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="set-password" />
          <FormError form={form} />
          {me.has_password ? (
            <TextField field={fields.current_password} label="Contraseña actual" type="password" autoComplete="current-password" />
          ) : null}
          <TextField
            field={fields.new_password}
            label="Contraseña nueva"
            type="password"
            autoComplete="new-password"
            hint={`Al menos ${countOf(minLength, "carácter", "caracteres")}.`}
          />
          <TextField field={fields.re_new_password} label="Repite la contraseña nueva" type="password" autoComplete="new-password" />
          <SubmitButton label={me.has_password ? "Guardar la contraseña" : "Crear contraseña"} action="/cuenta" className="btn" />
        </Form>
      </details>
    </section>
  );
}

function SubscriptionSection() {
  const { subscribed } = useLoaderData<typeof loader>();
  const [subscribe, fields] = useStepForm("cuenta-subscribe", subscribeSchema, "subscribe");
  const [unsubscribe] = useStepForm("cuenta-unsubscribe", unsubscribeSchema, "unsubscribe");
  return (
    <section aria-labelledby="account-mail" className="account-section">
      <h2 id="account-mail">Ofertas por correo</h2>
      {subscribed ? (
        <Form method="post" className="auth-form" {...getFormProps(unsubscribe)}>
          <input type="hidden" name="intent" value="unsubscribe" />
          <p>Recibes nuestras ofertas por correo.</p>
          <FormError form={unsubscribe} />
          <SubmitButton label="Darme de baja" action="/cuenta" className="btn btn-secondary" />
        </Form>
      ) : (
        <Form method="post" className="auth-form" {...getFormProps(subscribe)}>
          <input type="hidden" name="intent" value="subscribe" />
          <p>No recibes nuestras ofertas por correo.</p>
          <FormError form={subscribe} />
          <div>
            <label className="checkbox">
              <input {...getInputProps(fields.consent, { type: "checkbox" })} />
              <span>
                Quiero recibir ofertas por correo (<a href="/marketing-agreement">Consentimiento comercial</a>). Puedes darte de baja en
                cualquier momento.
              </span>
            </label>
            <FieldError field={fields.consent} />
          </div>
          <SubmitButton label="Suscribirme" action="/cuenta" className="btn" />
        </Form>
      )}
    </section>
  );
}

/** «Dispositivos con sesión abierta»: where the account is logged in, and ending any of it. */
function DevicesSection() {
  const { sessions } = useLoaderData<typeof loader>();
  const others = sessions.filter((s) => !s.current);
  return (
    <section aria-labelledby="account-devices-title" className="account-section" id="account-devices">
      <h2 id="account-devices-title">Dispositivos con sesión abierta</h2>
      <ul className="device-list">
        {sessions.map((s) => {
          const lastUse = formatDateTime(s.last_used_at);
          return (
            <li key={s.id} className="device" data-testid="device-session">
              <div>
                <strong>{s.device}</strong>
                {s.current ? <span className="device-current"> · Este dispositivo</span> : null}
                <br />
                <small className="muted">
                  Última actividad: <time dateTime={s.last_used_at}>{lastUse}</time>
                </small>
              </div>
              {s.current ? null : (
                <Form method="post" action="/cuenta">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="session" value={s.id} />
                  <button
                    type="submit"
                    className="btn btn-secondary"
                    aria-label={`Cerrar la sesión de ${s.device} (última actividad: ${lastUse})`}
                  >
                    Cerrar la sesión
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {others.length ? (
        <Form method="post" action="/cuenta">
          <input type="hidden" name="intent" value="end-other-sessions" />
          <SubmitButton label="Cerrar las demás sesiones" action="/cuenta" className="btn btn-secondary" />
        </Form>
      ) : (
        <p className="muted">No tienes la sesión abierta en ningún otro dispositivo.</p>
      )}
    </section>
  );
}

function DeleteSection() {
  const { me, step } = useLoaderData<typeof loader>();
  const [form, fields] = useStepForm("cuenta-delete", deleteAccountSchema, "delete");
  return (
    <section aria-labelledby="account-delete" className="account-section">
      <h2 id="account-delete">Eliminar mi cuenta</h2>
      {step === "delete" ? (
        <Form method="post" className="auth-form" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="delete" />
          <p className="form-error" role="alert">
            ¿Seguro? Se borrarán tu correo, tus favoritos y tu carrito guardado. Tus compras se conservan sin tus datos personales, y tus
            cupones siguen valiendo.
          </p>
          <FormError form={form} />
          {me.has_password ? (
            <TextField
              field={fields.current_password}
              label="Tu contraseña, para confirmar"
              type="password"
              autoComplete="current-password"
            />
          ) : null}
          <p className="account-links">
            <SubmitButton label="Sí, eliminar mi cuenta" action="/cuenta" className="btn" />
            <Link to="/cuenta" className="btn btn-secondary">
              Cancelar
            </Link>
          </p>
        </Form>
      ) : (
        <>
          <p className="muted">Borra tus datos personales. Antes te pediremos que lo confirmes.</p>
          <Link to="/cuenta?paso=eliminar#account-delete" className="btn btn-secondary">
            Eliminar mi cuenta
          </Link>
        </>
      )}
    </section>
  );
}

export default function Account() {
  return (
    <section className="narrow account-page">
      <h1>Mi cuenta</h1>
      <nav aria-label="Tu actividad" className="account-links">
        <Link to="/order/history" className="btn btn-secondary">
          Mis pedidos
        </Link>
        <Link to="/favorite" className="btn btn-secondary">
          Favoritos
        </Link>
      </nav>
      <EmailSection />
      <PasswordSection />
      <SubscriptionSection />
      <DevicesSection />
      <DeleteSection />
      <Form method="post" action="/logout">
        <input type="hidden" name="redirectTo" value="/" />
        <button type="submit" className="btn btn-secondary">
          Cerrar sesión
        </button>
      </Form>
    </section>
  );
}
