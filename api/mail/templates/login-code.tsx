import { Heading, Link, Text } from "@react-email/components";
import { z } from "zod";
import { PermanentMailError, type MailContext, type MessageRenderer } from "../context";
import { colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { countOf } from "#rules/plurals";

export const CodeMailData = z.object({
  code: z.string().regex(/^\d{6}$/),
  minutes: z.number().int().positive(),
  new_email: z.string().nullable().optional(),
});

/** A 6-digit code, large and easy to copy, with what it is for and how long it lasts. */
export function CodeEmail({
  origin,
  title,
  intro,
  code,
  minutes,
  action,
}: {
  origin: string;
  title: string;
  intro: string;
  code: string;
  minutes: number;
  action?: { href: string; label: string };
}) {
  return (
    <Layout origin={origin} preview={`${code} es tu código de ofertas`}>
      <Heading as="h1" className="m-ink" style={heading}>
        {title}
      </Heading>
      <Text style={text}>{intro}</Text>
      <Text
        className="m-code"
        data-testid="code"
        style={{
          ...text,
          fontSize: "32px",
          lineHeight: "40px",
          letterSpacing: "6px",
          fontWeight: 800,
          background: "#f3f4f6",
          borderRadius: "8px",
          padding: "12px 16px",
          textAlign: "center",
        }}
      >
        {code}
      </Text>
      <Text style={muted}>
        El código caduca en {countOf(minutes, "minuto", "minutos")} y solo sirve una vez. Si no lo has pedido tú, ignora este correo: nadie
        podrá entrar sin él.
      </Text>
      {action ? (
        <Text style={text}>
          <Link className="m-link" href={action.href} style={{ color: colors.brand, fontWeight: 700 }}>
            {action.label}
          </Link>
        </Text>
      ) : null}
    </Layout>
  );
}

export function parseCodeMail(data: Record<string, unknown>) {
  const parsed = CodeMailData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos del correo con código no válidos.");
  return parsed.data;
}

export async function renderCodeMail(ctx: MailContext, subject: string, props: Omit<Parameters<typeof CodeEmail>[0], "origin">) {
  return { subject, ...(await renderBoth(<CodeEmail origin={ctx.origin} {...props} />)) };
}

export const renderLoginCode: MessageRenderer = async (data, ctx) => {
  const { code, minutes } = parseCodeMail(data);
  return renderCodeMail(ctx, `${code} es tu código para entrar en ofertas`, {
    title: "Tu código para entrar",
    intro: "Escribe este código en la página de acceso para entrar en tu cuenta:",
    code,
    minutes,
  });
};
