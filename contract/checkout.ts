import { z } from "zod";
import { giftDetailsSchema, type GiftDetails } from "#rules/gifts";
import "#rules/zod-es";
import { isValidEmail } from "#rules/email";
import { isValidSpanishTaxId, normalizeTaxId } from "#rules/tax-id";
import { countOf } from "#rules/plurals";

export const MESSAGES = {
  emailRequired: "Escribe tu correo electrónico.",
  emailInvalid: "Escribe un correo electrónico válido, por ejemplo nombre@correo.es.",
  agreementRequired: "Debes aceptar el acuerdo de usuario para continuar.",
  fullNameRequired: "Escribe tu nombre completo o razón social.",
  taxIdRequired: "Escribe tu NIF, NIE o CIF.",
  taxIdInvalid: "El NIF, NIE o CIF no es válido. Revisa los números y la letra.",
  addressRequired: "Escribe la dirección de facturación.",
};

const email = z
  .string({ required_error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .refine(isValidEmail, MESSAGES.emailInvalid)
  .transform((v) => v.toLowerCase());

const FULLNAME_MAX = 200;
const TAX_ID_MAX = 20;
const ADDRESS_MAX = 300;
const tooLong = (max: number) => `Como máximo ${countOf(max, "carácter", "caracteres")}.`;
const optionalText = (max: number) => z.string().trim().max(max, tooLong(max)).optional();

/** Every message a field of the form can show: the form keeps room for the longest under each field. */
export const FIELD_MESSAGES: Record<"email" | "subs_agreement" | "user_fullname" | "user_tax_number" | "user_address", string[]> = {
  email: [MESSAGES.emailRequired, MESSAGES.emailInvalid],
  subs_agreement: [MESSAGES.agreementRequired],
  user_fullname: [MESSAGES.fullNameRequired, tooLong(FULLNAME_MAX)],
  user_tax_number: [MESSAGES.taxIdRequired, MESSAGES.taxIdInvalid, tooLong(TAX_ID_MAX)],
  user_address: [MESSAGES.addressRequired, tooLong(ADDRESS_MAX)],
};

type ReceiptFields = {
  need_receipt: boolean;
  user_fullname?: string;
  user_tax_number?: string;
  user_address?: string;
};

function requireReceipt(data: ReceiptFields, ctx: z.RefinementCtx, fullNameAlways: boolean) {
  if ((data.need_receipt || fullNameAlways) && !data.user_fullname) {
    ctx.addIssue({ code: "custom", path: ["user_fullname"], message: MESSAGES.fullNameRequired });
  }
  if (!data.need_receipt) return;
  if (!data.user_tax_number) {
    ctx.addIssue({ code: "custom", path: ["user_tax_number"], message: MESSAGES.taxIdRequired });
  } else if (!isValidSpanishTaxId(data.user_tax_number)) {
    ctx.addIssue({ code: "custom", path: ["user_tax_number"], message: MESSAGES.taxIdInvalid });
  }
  if (!data.user_address) {
    ctx.addIssue({ code: "custom", path: ["user_address"], message: MESSAGES.addressRequired });
  }
}

/**
 * The checkout form ("Continuar" on /checkout). Conform parses the FormData with it in the action
 * and validates with it in the browser. `wallet` is set when the payment provider is a wallet, which
 * always needs the buyer's full name. Every rule runs in one refinement so that all mistakes are
 * reported together, not the receipt ones only after the email is fixed.
 */
export function checkoutFormSchema(options: { wallet: boolean }) {
  return z
    .object({
      // Conform sends an empty field as undefined; "" lets the refinement below say what is missing.
      email: z.string().trim().toLowerCase().default(""),
      subs_agreement: z.boolean().default(false),
      // Marketing consent: optional, unticked by default, recorded with its date when the sale is paid.
      mail_agreement: z.boolean().default(false),
      need_receipt: z.boolean().default(false),
      user_fullname: optionalText(FULLNAME_MAX),
      user_tax_number: optionalText(TAX_ID_MAX),
      user_address: optionalText(ADDRESS_MAX),
    })
    .superRefine((data, ctx) => {
      if (!isValidEmail(data.email)) {
        ctx.addIssue({ code: "custom", path: ["email"], message: data.email ? MESSAGES.emailInvalid : MESSAGES.emailRequired });
      }
      if (!data.subs_agreement) ctx.addIssue({ code: "custom", path: ["subs_agreement"], message: MESSAGES.agreementRequired });
      requireReceipt(data, ctx, options.wallet);
    });
}

export type CheckoutForm = z.infer<ReturnType<typeof checkoutFormSchema>>;

/**
 * checkout_data as sent to /sales/validate/: without a receipt the receipt fields are dropped;
 * with a wallet provider the full name is always sent.
 */
export function toCheckoutData(
  form: CheckoutForm,
  options: { wallet: boolean; forPresent: string[]; gifts?: (GiftDetails & { offer_uuid: string })[] },
) {
  return {
    subs_agreement: true as const, // the form schema refuses anything else
    email: form.email,
    mail_agreement: form.mail_agreement,
    need_receipt: form.need_receipt,
    ...(form.need_receipt || options.wallet ? { user_fullname: form.user_fullname } : {}),
    ...(form.need_receipt ? { user_tax_number: normalizeTaxId(form.user_tax_number ?? ""), user_address: form.user_address } : {}),
    for_present: options.forPresent,
    gifts: options.gifts ?? [],
  };
}

/** One line's gift, by offer: the checkout's gift schema, checked again against today's date. */
const GiftSchema = z
  .object({ offer_uuid: z.string().uuid() })
  .passthrough()
  .transform((value, ctx) => {
    const parsed = giftDetailsSchema().safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return { offer_uuid: value.offer_uuid.toLowerCase(), ...parsed.data };
  });

/** The API's side of the same rules, for JSON bodies. */
export const CheckoutDataSchema = z
  .object({
    subs_agreement: z.literal(true, { errorMap: () => ({ message: MESSAGES.agreementRequired }) }),
    email,
    mail_agreement: z.boolean().default(false),
    need_receipt: z.boolean().default(false),
    user_fullname: optionalText(FULLNAME_MAX),
    user_tax_number: optionalText(TAX_ID_MAX),
    user_address: optionalText(ADDRESS_MAX),
    for_present: z.array(z.string().uuid()).max(50).default([]),
    gifts: z.array(GiftSchema).max(50).default([]),
  })
  .superRefine((data, ctx) => requireReceipt(data, ctx, false));

export type CheckoutData = z.infer<typeof CheckoutDataSchema>;
