import { linkToken, type MessageRenderer } from "../context";
import { parseCodeMail, renderCodeMail } from "./login-code";

export const renderPasswordReset: MessageRenderer = async (data, ctx) => {
  const { code, minutes } = parseCodeMail(data);
  const link = new URLSearchParams({ paso: "codigo", t: linkToken(ctx, "password-reset") });
  return renderCodeMail(ctx, `${code} es tu código para cambiar la contraseña de ofertas`, {
    title: "Cambia tu contraseña",
    intro: "Has pedido cambiar la contraseña de tu cuenta. Escribe este código junto con la nueva contraseña:",
    code,
    minutes,
    action: { href: `${ctx.origin}/login/recuperar?${link}`, label: "Abrir la página para cambiar la contraseña" },
  });
};
