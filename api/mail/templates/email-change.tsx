import type { MessageRenderer } from "../context";
import { parseCodeMail, renderCodeMail } from "./login-code";

export const renderEmailChange: MessageRenderer = async (data, ctx) => {
  const { code, minutes } = parseCodeMail(data);
  return renderCodeMail(ctx, `${code} es tu código para confirmar tu nuevo correo en ofertas`, {
    title: "Confirma tu nuevo correo",
    intro: "Para usar esta dirección en tu cuenta de ofertas, escribe este código en tu cuenta:",
    code,
    minutes,
  });
};
