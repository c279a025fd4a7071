import { HONEYPOT_FIELD } from "#app/components/honeypot";
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "#rules/text";

/** Forms of this shop are a few fields; anything bigger is not one of ours. */
const DEFAULT_MAX_BYTES = 64 * 1024;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

export const FORM_MESSAGES = {
  contentType: "No hemos entendido la petición: envía el formulario desde la página.",
  malformed: "No hemos podido leer el formulario. Vuelve a la página e inténtalo de nuevo.",
  tooLarge: "El formulario es demasiado grande.",
  text: UNSTORABLE_TEXT_MESSAGE,
  spam: "No hemos podido enviar el formulario. Vuelve a la página e inténtalo de nuevo.",
} as const;

/** The field <Honeypot> renders (app/components/honeypot.tsx); only a bot fills it in. */
export { HONEYPOT_FIELD };

/** The 400 (or 413) every action answers for a body it cannot read; nothing caches it. */
function refuse(message: string, status = 400): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The one way a storefront action reads its form body. A missing or foreign content type, a body
 * that does not parse, one that is too large, or text with NUL or lone surrogates is thrown as a
 * 400 Response with a Spanish message (the route's error boundary shows it): never a 500, and no
 * action has to guard against any of it again. `honeypot: true` also refuses a form whose
 * honeypot field is missing or filled in.
 */
export async function readForm(request: Request, { maxBytes = DEFAULT_MAX_BYTES, honeypot = false } = {}): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw refuse(FORM_MESSAGES.contentType);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw refuse(FORM_MESSAGES.tooLarge, 413);

  const bytes = await readLimited(request, maxBytes);
  let form: FormData;
  try {
    // A fresh Request over the bytes read, so the size limit holds even for a chunked body.
    form = await new Request(request.url, { method: "POST", headers: request.headers, body: bytes as unknown as BodyInit }).formData();
  } catch {
    throw refuse(FORM_MESSAGES.malformed);
  }
  for (const [name, value] of form) {
    if (findUnstorableText(name) !== null || (typeof value === "string" && findUnstorableText(value) !== null)) {
      throw refuse(FORM_MESSAGES.text);
    }
    if (typeof value !== "string" && findUnstorableText(value.name) !== null) throw refuse(FORM_MESSAGES.text);
  }
  // Public forms (login, registration, password reset) carry the honeypot: it must be there, empty.
  if (honeypot && form.get(HONEYPOT_FIELD) !== "") throw refuse(FORM_MESSAGES.spam);
  return form;
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw refuse(FORM_MESSAGES.tooLarge, 413);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw refuse(FORM_MESSAGES.malformed);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
