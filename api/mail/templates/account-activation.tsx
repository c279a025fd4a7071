import { linkToken, type MessageRenderer } from "../context";
import { parseCodeMail, renderCodeMail } from "./login-code";

export const renderAccountActivation: MessageRenderer = async (data, ctx) => {
  const { code, minutes } = parseCodeMail(data);
  const link = new URLSearchParams({ paso: "activar", t: linkToken(ctx, "activation") });
  return renderCodeMail(ctx, `${code} es tu código para activar tu cuenta de ofertas`, {
    title: "Activa tu cuenta",
    intro: "Gracias por registrarte. Escribe este código para activar tu cuenta:",
    code,
    minutes,
    action: { href: `${ctx.origin}/login/registro?${link}`, label: "Abrir la página de activación" },
  });
};
