/**
 * Inputs of the partner and staff side of the contract (organisations, offers, promo codes,
 * coupons, «Publica tu oferta»). The API parses its JSON bodies with these schemas and the
 * /socios, /admin and /empresas forms use the same ones through conform, so a rule is written once.
 */
import { z } from "zod";
import "#rules/zod-es";
import { CATEGORY_IDS, OFFER_TYPES } from "#rules/categories";
import { isValidEmail } from "#rules/email";
import { OFFER_STATUSES } from "#rules/offer-status";
import { DISCOUNT_TYPES, fromCents, toCents } from "#rules/prices";
import { PROVINCES } from "#rules/regions";
import { ROLES } from "#rules/roles";
import { isValidSpanishTaxId, normalizeTaxId } from "#rules/tax-id";
import { PromoCodeText } from "#contract/sales";
import { pageFields } from "#contract/page";
import { countOf } from "#rules/plurals";

const text = (max: number) =>
  z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(max, `Como máximo ${countOf(max, "carácter", "caracteres")}.`)
      .default(""),
  );

const required = (label: string, min: number, max: number) =>
  z
    .string({ required_error: `Escribe ${label}.` })
    .trim()
    .min(min, min <= 1 ? `Escribe ${label}.` : `${capitalise(label)}: como mínimo ${countOf(min, "carácter", "caracteres")}.`)
    .max(max, `Como máximo ${countOf(max, "carácter", "caracteres")}.`);

function capitalise(s: string) {
  return s.replace(/^(el |la |los |las |tu |su )/, "").replace(/^./, (c) => c.toUpperCase());
}

const nullable = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === "" || v === undefined ? null : v), schema.nullable());

export const emailField = z
  .string({ required_error: "Escribe un correo electrónico." })
  .trim()
  .min(1, "Escribe un correo electrónico.")
  .refine(isValidEmail, "Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")
  .transform((v) => v.toLowerCase());

const phone = z
  .string()
  .trim()
  .regex(/^\+?[\d\s().-]{6,20}$/, "Escribe un teléfono válido, por ejemplo 912 345 678.");

const website = z
  .string()
  .trim()
  .max(300)
  .transform((v) => (/^https?:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
    } catch {
      return false;
    }
  }, "Escribe una web válida, por ejemplo www.tunegocio.es.");

export const provinceField = z.enum(PROVINCES, { errorMap: () => ({ message: "Elige una provincia." }) });
export const categoryField = z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Elige una categoría." }) });

export const OrganizationSchema = z.object({
  name: required("el nombre", 2, 120),
  tax_id: z
    .string({ required_error: "Escribe el CIF o NIF." })
    .trim()
    .min(1, "Escribe el CIF o NIF.")
    .refine(isValidSpanishTaxId, "El CIF o NIF no es válido. Revisa los números y la letra.")
    .transform(normalizeTaxId),
  email: emailField,
  phone: nullable(phone),
  website: nullable(website),
  address: text(200),
  province: nullable(provinceField),
  logo: nullable(
    z
      .string()
      .trim()
      .max(500)
      .regex(/^(\/|https:\/\/)/, "El logotipo debe ser una dirección https o una imagen subida."),
  ),
});
export type OrganizationInput = z.infer<typeof OrganizationSchema>;

/** Euros as the API writes them ("19.90"); a comma works too, as a Spanish keyboard types it. */
export const moneyField = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : typeof v === "string" ? v.trim().replace(",", ".") : v),
  z
    .string({ required_error: "Escribe un precio." })
    .regex(/^\d{1,6}(\.\d{1,2})?$/, "Escribe un precio válido, por ejemplo 19,90.")
    .transform((v) => fromCents(toCents(v))),
);

const wholeNumber = (message: string, min: number, max: number) =>
  z.coerce.number({ invalid_type_error: message, required_error: message }).int(message).min(min, message).max(max, message);

export const PriceOptionInput = z
  .object({
    uuid: z.preprocess((v) => (v === "" ? undefined : v), z.string().uuid().optional()),
    title: required("el nombre de la opción", 2, 120),
    actual_price: moneyField,
    regular_price: moneyField,
    available: wholeNumber("Las entradas a la venta deben ser un número entero de 0 a 100000.", 0, 100_000),
    per_customer: nullable(wholeNumber("El máximo por cliente debe ser un número entero de 1 a 100.", 1, 100)),
  })
  .refine((o) => toCents(o.actual_price) <= toCents(o.regular_price), {
    path: ["actual_price"],
    message: "El precio de oferta no puede ser mayor que el precio habitual.",
  });
export type PriceOptionInput = z.infer<typeof PriceOptionInput>;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Escribe una fecha válida (aaaa-mm-dd).")
  // A 2026-13-01 has the shape but no day; the database would refuse it later, as a 500.
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
  }, "Escribe una fecha válida (aaaa-mm-dd).");

/** A form sends three option rows; the ones left completely blank are not options. */
const blankRowsDropped = (v: unknown) =>
  Array.isArray(v)
    ? v.filter(
        (row) =>
          row && typeof row === "object" && Object.entries(row).some(([k, x]) => k !== "uuid" && x !== undefined && x !== null && x !== ""),
      )
    : v;

export const MAX_PRICE_OPTIONS = 10;

const offerFields = {
  organization: z.string({ required_error: "Elige la empresa." }).uuid("Elige la empresa."),
  title: required("el título", 5, 120),
  summary: required("el resumen", 10, 300),
  description: text(5000),
  conditions: text(3000),
  category: categoryField,
  region: provinceField,
  address: text(200),
  latitude: nullable(z.coerce.number().min(-90).max(90)),
  longitude: nullable(z.coerce.number().min(-180).max(180)),
  offer_type: z.enum(OFFER_TYPES).default("regular"),
  valid_from: nullable(isoDate),
  valid_until: nullable(isoDate),
  /** The last day on sale (rules/sale-end.ts); blank: while the offer is active. */
  sale_until: nullable(isoDate),
  price_options: z.preprocess(
    blankRowsDropped,
    z
      .array(PriceOptionInput, { required_error: "Añade al menos una opción de precio." })
      .min(1, "Añade al menos una opción de precio.")
      .max(MAX_PRICE_OPTIONS, `Como máximo ${MAX_PRICE_OPTIONS} opciones de precio.`),
  ),
};

function datesInOrder(o: { valid_from?: string | null; valid_until?: string | null; sale_until?: string | null }, ctx: z.RefinementCtx) {
  if (o.valid_from && o.valid_until && o.valid_until < o.valid_from) {
    ctx.addIssue({ code: "custom", path: ["valid_until"], message: "La fecha de fin es anterior a la de inicio." });
  }
  if (o.sale_until && o.valid_until && o.sale_until > o.valid_until) {
    ctx.addIssue({ code: "custom", path: ["sale_until"], message: "La venta no puede terminar después de la validez del cupón." });
  }
}

/** POST /offers/ and PUT /offers/{id}/ (and the «Mis ofertas» form). */
export const OfferSchema = z.object(offerFields).superRefine(datesInOrder);
export type OfferInput = z.infer<typeof OfferSchema>;

const offerObject = z.object(offerFields);

/** PATCH /offers/{id}/: any of the fields, plus a change of status (and the reason when sent back). */
export const OfferPatchSchema = offerObject
  .partial()
  .extend({
    status: z.enum(OFFER_STATUSES, { errorMap: () => ({ message: "Estado de oferta desconocido." }) }).optional(),
    review_note: z.string().trim().max(1000).optional(),
  })
  .superRefine(datesInOrder);

const reviewNote = required("el motivo", 5, 1000);

/**
 * The staff's review on /admin: a pending offer is approved or sent back with a reason; a change
 * to an offer on sale (a revision) is approved or rejected with a reason.
 */
export const OfferReviewSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), offer: z.string().uuid() }),
  z.object({ intent: z.literal("send-back"), offer: z.string().uuid(), review_note: reviewNote }),
  z.object({ intent: z.literal("approve-changes"), revision: z.string().uuid() }),
  z.object({ intent: z.literal("reject-changes"), revision: z.string().uuid(), review_note: reviewNote }),
]);

/** PATCH /offers/revisions/{id}/ (staff): a change to an offer on sale, approved, or rejected with the reason. */
export const RevisionDecisionSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("approved") }),
  z.object({ status: z.literal("rejected"), review_note: reviewNote }),
]);

const promoDate = nullable(
  z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), "Escribe una fecha válida (aaaa-mm-dd)."),
);

/** /promocodes/: the same terms the sales side enforces when a buyer uses the code. */
const promoCodeFields = z.object({
  code: PromoCodeText.pipe(z.string().regex(/^[A-Z0-9_-]{3,40}$/, "El código: de 3 a 40 letras sin acentos, números, - o _.")),
  discount_type: z.enum(DISCOUNT_TYPES, { errorMap: () => ({ message: "Elige el tipo de descuento." }) }),
  discount_value: z.preprocess(
    (v) => (typeof v === "number" ? String(v) : typeof v === "string" ? v.trim().replace(",", ".") : v),
    z
      .string({ required_error: "Escribe el valor del descuento." })
      .regex(/^\d{1,6}(\.\d{1,2})?$/, "Escribe un número, por ejemplo 10 o 4,50."),
  ),
  valid_from: promoDate,
  valid_until: promoDate,
  max_uses: nullable(wholeNumber("Los usos totales deben ser un número entero de 1 a 1000000.", 1, 1_000_000)),
  per_customer_limit: nullable(wholeNumber("Los usos por cliente deben ser un número entero de 1 a 100.", 1, 100)),
  offer: nullable(z.string().uuid("Elige una oferta.")),
});

function promoCodeRules(p: Partial<z.infer<typeof promoCodeFields>>, ctx: z.RefinementCtx) {
  const value = Number(p.discount_value);
  if (p.discount_type === "percent" && (value <= 0 || value > 100)) {
    ctx.addIssue({ code: "custom", path: ["discount_value"], message: "Un porcentaje va de 1 a 100." });
  }
  if (p.discount_type === "amount" && value <= 0) {
    ctx.addIssue({ code: "custom", path: ["discount_value"], message: "El descuento debe ser mayor que 0." });
  }
  if (p.valid_from && p.valid_until && Date.parse(p.valid_until) < Date.parse(p.valid_from)) {
    ctx.addIssue({ code: "custom", path: ["valid_until"], message: "La fecha de fin es anterior a la de inicio." });
  }
}

export const PromoCodeSchema = promoCodeFields.superRefine(promoCodeRules);
export const PromoCodePatchSchema = promoCodeFields.partial().superRefine(promoCodeRules);
export type PromoCodeInput = z.infer<typeof PromoCodeSchema>;

/** The voucher's code as typed at the till, with or without dashes. */
export const CouponCodeSchema = z.object({
  code: z.string({ required_error: "Escribe el código del cupón." }).trim().min(1, "Escribe el código del cupón.").max(200),
});

export const HONEYPOT_FIELD = "website";

/** POST /sales/become_partner/ and the «Publica tu oferta» form on /empresas. */
export const BecomePartnerSchema = z.object({
  business_name: required("el nombre del negocio", 2, 120),
  contact_name: required("tu nombre", 2, 120),
  email: emailField,
  phone: z.string({ required_error: "Escribe un teléfono de contacto." }).pipe(phone),
  province: provinceField,
  category: categoryField,
  message: text(2000),
  // Hidden from people; a bot that fills every field gives itself away.
  [HONEYPOT_FIELD]: z.string().optional(),
});
export type BecomePartnerInput = z.infer<typeof BecomePartnerSchema>;

/** GET /users/ (staff). */
export const UsersQuerySchema = z.object({
  email: z.string().trim().max(254).optional(),
  role: z.enum(ROLES, { errorMap: () => ({ message: "Rol desconocido." }) }).optional(),
});

/** Partner's sales list: by date and offer; dates are whole days in Madrid, as the statements' months are. */
export const SalesQuerySchema = z.object({
  date_from: nullable(isoDate).optional(),
  date_to: nullable(isoDate).optional(),
  offer: nullable(z.string().uuid("Oferta no válida.")).optional(),
  organization: nullable(z.string().uuid("Empresa no válida.")).optional(),
  format: z.enum(["json", "csv"]).default("json"),
  ...pageFields,
});

/** The «Ventas» filter on /socios (a GET form): the same query, dates in order. */
export const SalesFilterSchema = SalesQuerySchema.pick({ date_from: true, date_to: true, offer: true }).superRefine((q, ctx) => {
  if (q.date_from && q.date_to && q.date_to < q.date_from) {
    ctx.addIssue({ code: "custom", path: ["date_to"], message: "La fecha de fin es anterior a la de inicio." });
  }
});

/** /admin/organizaciones/{id}: a member is added by the email of an existing account. */
export const MemberSchema = z.object({ intent: z.literal("add-member"), email: emailField });

/** /admin/usuarios: erasing a person, after the confirmation step. */
export const UserDeleteSchema = z.object({ intent: z.literal("delete"), user: z.string().uuid("Usuario no válido.") });

/** The promo-code screens: narrow the form's «Oferta» list by title (a GET form; `oferta` in the URL). */
export const OfferChoiceSearchSchema = z.object({ oferta: z.string().trim().max(200, "Como máximo 200 caracteres.").optional() });

/** /admin/organizaciones: find an organisation by name (a GET form). */
export const OrganizationSearchSchema = z.object({ search: z.string().trim().max(120, "Como máximo 120 caracteres.").optional() });
