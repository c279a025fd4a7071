import { z } from "zod";
import { addDays, madridDate, madridHour } from "./dates";
import { isValidEmail } from "./email";

// Short enough that ten gifts fit in the signed cart cookie with the rest of the cart.
export const GIFT_NAME_MAX = 60;
export const GIFT_MESSAGE_MAX = 200;
/** A refused gift's fields as typed, kept to show them again: the longest each field may come back. */
export const GIFT_TYPED_MAX = 600;
export type TypedGift = {
  offer: string;
  recipient_name: string;
  sender_name: string;
  recipient_email: string;
  message: string;
  send_on: string;
};
export const typedGiftText = (g: TypedGift) =>
  JSON.stringify({
    offer: g.offer,
    recipient_name: g.recipient_name.slice(0, GIFT_NAME_MAX + 20),
    sender_name: g.sender_name.slice(0, GIFT_NAME_MAX + 20),
    recipient_email: g.recipient_email.slice(0, 254),
    message: g.message.slice(0, GIFT_MESSAGE_MAX + 20),
    send_on: g.send_on.slice(0, 10),
  });
export function typedGiftOf(text: string | undefined): TypedGift | null {
  try {
    const g = JSON.parse(text ?? "") as Partial<TypedGift>;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    return {
      offer: str(g.offer),
      recipient_name: str(g.recipient_name),
      sender_name: str(g.sender_name),
      recipient_email: str(g.recipient_email),
      message: str(g.message),
      send_on: str(g.send_on),
    };
  } catch {
    return null;
  }
}
/** The id of a cart line's gift form, where a refusal without JS lands. */
export const giftFormId = (offerUuid: string) => `regalo-${offerUuid}`;
/** How far ahead a gift mail may be planned. */
export const GIFT_SEND_MAX_DAYS = 365;

/** Who a gift is for and what it says; send_on is a Madrid calendar day (YYYY-MM-DD). */
export type GiftDetails = {
  recipient_name: string;
  /** «De parte de»: who gives it, as they want to be named; null when they left it empty. */
  sender_name: string | null;
  recipient_email: string | null;
  message: string;
  send_on: string | null;
};

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : value);
// null is how a saved gift says "none": the cart keeps the schema's output and the API parses it again.
const optional = (value: unknown) => (value == null || (typeof value === "string" && value.trim() === "") ? undefined : trimmed(value));

/**
 * The gift fields of one cart line, as the checkout posts them and as the API accepts them. `today`
 * is Madrid's date, passed in so the server decides which days are past.
 */
export function giftDetailsSchema(today: string = madridDate(new Date())) {
  return z
    .object({
      recipient_name: z.preprocess(
        trimmed,
        z
          .string({ required_error: "Escribe el nombre de quien recibe el regalo." })
          .min(1, "Escribe el nombre de quien recibe el regalo.")
          .max(GIFT_NAME_MAX, `El nombre admite como máximo ${GIFT_NAME_MAX} caracteres.`),
      ),
      sender_name: z.preprocess(
        optional,
        z.string().max(GIFT_NAME_MAX, `El nombre admite como máximo ${GIFT_NAME_MAX} caracteres.`).optional(),
      ),
      recipient_email: z.preprocess(optional, z.string().max(254, "El email es demasiado largo.").optional()),
      message: z.preprocess(
        (v) => trimmed(v ?? ""),
        z.string().max(GIFT_MESSAGE_MAX, `El mensaje admite como máximo ${GIFT_MESSAGE_MAX} caracteres.`),
      ),
      send_on: z.preprocess(
        optional,
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, "Elige una fecha de envío válida.")
          .optional(),
      ),
    })
    .superRefine((data, ctx) => {
      if (data.recipient_email !== undefined && !isValidEmail(data.recipient_email)) {
        ctx.addIssue({ code: "custom", path: ["recipient_email"], message: "Escribe un email válido, como nombre@ejemplo.es." });
      }
      if (data.send_on !== undefined) {
        if (data.recipient_email === undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["send_on"],
            message: "Para elegir el día del envío, escribe el email de quien lo recibe.",
          });
        } else if (data.send_on < today) {
          ctx.addIssue({ code: "custom", path: ["send_on"], message: "La fecha de envío ya ha pasado: elige hoy o un día posterior." });
        } else if (data.send_on > addDays(today, GIFT_SEND_MAX_DAYS)) {
          ctx.addIssue({ code: "custom", path: ["send_on"], message: "La fecha de envío puede estar como mucho a un año vista." });
        }
      }
    })
    .transform((d): GiftDetails => ({
      recipient_name: d.recipient_name,
      sender_name: d.sender_name ?? null,
      recipient_email: d.recipient_email?.toLowerCase() ?? null,
      message: d.message,
      send_on: d.send_on ?? null,
    }));
}

/** The hour (Madrid) a gift mail with a chosen day goes: a morning, not midnight. */
export const GIFT_SEND_HOUR = 9;

/** The outbox key of a gift's mail to its recipient: its row says whether the gift was given. */
export const giftMailKey = (saleItemId: string) => `gift:${saleItemId}`;

/** The instant a gift mail goes: GIFT_SEND_HOUR in Madrid on its day, or now without a day. */
export function giftSendAt(sendOn: string | null, now: Date = new Date()): Date {
  if (!sendOn) return now;
  const y = Number(sendOn.slice(0, 4));
  const m = Number(sendOn.slice(5, 7)) - 1;
  const d = Number(sendOn.slice(8, 10));
  // Madrid is UTC+1 or UTC+2: the offset whose wall clock reads the hour on that day.
  for (const offset of [1, 2]) {
    const at = new Date(Date.UTC(y, m, d, GIFT_SEND_HOUR - offset));
    if (madridDate(at) === sendOn && madridHour(at) === GIFT_SEND_HOUR) return at > now ? at : now;
  }
  return now;
}
