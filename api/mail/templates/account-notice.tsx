import { Heading, Link, Text } from "@react-email/components";
import { z } from "zod";
import { PermanentMailError, type MailContext, type MessageRenderer } from "../context";
import { heading, Layout, muted, renderBoth, text } from "../layout";
import { countOf } from "#rules/plurals";

/**
 * Notices about an address rather than a code: what the owner of the inbox needs to know when
 * someone asked for something the shop will not do, told to them and not to whoever asked (the
 * API answers the asker the same way whether the address has an account or not).
 */
function NoticeEmail({
  origin,
  title,
  paragraphs,
  action,
  footnote,
}: {
  origin: string;
  title: string;
  paragraphs: string[];
  action: { path: string; label: string };
  footnote: string;
}) {
  return (
    <Layout origin={origin} preview={title}>
      <Heading as="h1" className="m-ink" style={heading}>
        {title}
      </Heading>
      {paragraphs.map((p) => (
        <Text key={p} style={text}>
          {p}
        </Text>
      ))}
      <Text style={text}>
        <Link className="m-link" href={`${origin}${action.path}`}>
          {action.label}
        </Link>
      </Text>
      <Text style={muted}>{footnote}</Text>
    </Layout>
  );
}

async function renderNotice(ctx: MailContext, subject: string, props: Omit<Parameters<typeof NoticeEmail>[0], "origin">) {
  return { subject, ...(await renderBoth(<NoticeEmail origin={ctx.origin} {...props} />)) };
}

function parse<T extends z.ZodTypeAny>(schema: T, data: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos del aviso de cuenta no válidos.");
  return parsed.data;
}

/**
 * A notice whose first paragraph says why it came (data.reason, one of `why`'s keys); the rest is
 * the same for every reason.
 */
function noticeFor(
  why: Record<string, string>,
  subject: string,
  rest: Omit<Parameters<typeof NoticeEmail>[0], "origin" | "paragraphs"> & { next: string },
): MessageRenderer {
  const Reason = z.object({ reason: z.enum(Object.keys(why) as [string, ...string[]]) });
  return async (data, ctx) => {
    const { reason } = parse(Reason, data);
    const { next, ...props } = rest;
    return renderNotice(ctx, subject, { ...props, paragraphs: [why[reason], next] });
  };
}

/** Registration, activation or an email change asked for an address that already has an account. */
export const renderAccountExists = noticeFor(
  {
    register: "Alguien, quizá tú, ha intentado crear una cuenta nueva en ofertas con este correo. No hace falta: ya tienes una.",
    activation:
      "Alguien, quizá tú, ha pedido un código para activar una cuenta de ofertas con este correo. Tu cuenta ya está activa: no hace falta activarla.",
    "email-change":
      "Alguien, quizá tú, ha pedido usar este correo en otra cuenta de ofertas. No lo hemos hecho, porque este correo ya es el de tu cuenta.",
  },
  "Ya tienes una cuenta en ofertas con este correo",
  {
    title: "Ya tienes una cuenta",
    next: "Para entrar, pide un código en la página de acceso. Si tienes contraseña y no la recuerdas, puedes elegir otra desde allí.",
    action: { path: "/login", label: "Entrar en ofertas" },
    footnote: "Si no has sido tú, ignora este correo: tu cuenta sigue igual.",
  },
);

/** A password reset, an activation code or an email change asked for an address without an account. */
export const renderNoAccount = noticeFor(
  {
    reset_password:
      "Alguien, quizá tú, ha pedido cambiar la contraseña de una cuenta de ofertas con este correo, pero no hay ninguna cuenta con él.",
    activation:
      "Alguien, quizá tú, ha pedido un código para activar una cuenta de ofertas con este correo, pero no hay ninguna cuenta pendiente de activar con él.",
    reset_email:
      "Alguien, quizá tú, ha pedido cambiar el correo de una cuenta de ofertas con esta dirección, pero no hay ninguna cuenta con ella.",
  },
  "No hay ninguna cuenta de ofertas con este correo",
  {
    title: "No hay ninguna cuenta con este correo",
    next: "Si quieres una, entra con un código que te enviaremos por correo: la crearemos al entrar.",
    action: { path: "/login", label: "Entrar con un código" },
    footnote: "Si no has sido tú, ignora este correo.",
  },
);

/** Too many wrong passwords in a row: the account now logs in by code until its owner does. */
export const renderPasswordLocked: MessageRenderer = async (data, ctx) => {
  const { failures, minutes } = parse(z.object({ failures: z.number().int().positive(), minutes: z.number().int().positive() }), data);
  return renderNotice(ctx, "Hemos protegido tu cuenta de ofertas", {
    title: "Varios intentos con una contraseña equivocada",
    paragraphs: [
      `Alguien ha escrito una contraseña equivocada ${countOf(failures, "vez", "veces")} en ${countOf(minutes, "minuto", "minutos")} para entrar en tu cuenta. Por seguridad, la próxima vez entra con un código que te enviaremos a este correo; después tu contraseña volverá a funcionar.`,
      "Nadie ha entrado en tu cuenta. Si no has sido tú, cambia tu contraseña en «Mi cuenta» cuando hayas entrado con el código.",
    ],
    action: { path: "/login", label: "Entrar con un código" },
    footnote: "Este aviso se envía una vez cada vez que protegemos la cuenta.",
  });
};
