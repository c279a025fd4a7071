/**
 * Answers of the partner and staff side of /api/v0. The API produces them and the /socios and
 * /admin screens read them; both import from here so the storefront needs nothing from `api/`.
 */
import { z } from "zod";
import { COUPON_STATES } from "#rules/coupons";
import { OFFER_STATUSES } from "#rules/offer-status";
import { PARTNER_ROLES } from "#rules/partner-roles";
import { REVIEWED_TEXT_FIELDS, REVISION_STATUSES } from "#rules/offer-revisions";
import { OfferImageSchema, offerFields, pageOf } from "#contract/offers";
import { AccountUserSchema } from "#contract/accounts";

const nullableText = z.string().nullable();

/** A picture as the public API shows it, with its id and every rendition in place of the small one. */
export const PartnerImageSchema = OfferImageSchema.omit({ small_url: true }).extend({
  uuid: z.string(),
  variants: z.array(z.object({ url: z.string(), width: z.number(), height: z.number() })),
});
export type PartnerImage = z.infer<typeof PartnerImageSchema>;
export const PartnerImageListSchema = z.object({ results: z.array(PartnerImageSchema) });

export const PartnerPriceOptionSchema = z.object({
  uuid: z.string(),
  title: z.string(),
  actual_price: z.string(),
  regular_price: z.string(),
  available: z.number().int(),
  per_customer: z.number().int().nullable(),
  /** Coupons sold and not refunded (api/services/coupon-facts.ts: the count «Ventas» and the public page give). */
  sold: z.number().int(),
  /** Tickets of sales waiting for their payment: not sold yet, and not for sale to anyone else meanwhile. */
  reserved: z.number().int(),
});
export type PartnerPriceOption = z.infer<typeof PartnerPriceOptionSchema>;

/** A revision's fields (rules/offer-revisions.ts RevisionChanges): only the fields it is about. */
const RevisionChangesSchema = z
  .object(
    Object.fromEntries(REVIEWED_TEXT_FIELDS.map((f) => [f, z.string().optional()])) as Record<
      (typeof REVIEWED_TEXT_FIELDS)[number],
      z.ZodOptional<z.ZodString>
    >,
  )
  .extend({
    price_options: z
      .array(
        z.object({
          uuid: nullableText,
          title: z.string(),
          actual_price: z.string(),
          regular_price: z.string(),
          available: z.number().int().optional(),
          per_customer: z.number().int().nullable().optional(),
        }),
      )
      .optional(),
  });

/** A change to an approved offer's words or prices (rules/offer-revisions.ts). */
export const OfferRevisionSchema = z.object({
  uuid: z.string(),
  status: z.enum(REVISION_STATUSES),
  submitted_at: z.string(),
  reviewed_at: nullableText,
  /** Why staff rejected it. */
  review_note: nullableText,
  /** What the partner proposed: only what differs from the live offer. */
  changes: RevisionChangesSchema,
  /** The live values of the same fields (and options), to show beside them. */
  current: RevisionChangesSchema,
});
export type OfferRevision = z.infer<typeof OfferRevisionSchema>;

/** Staff's queue of changes: each with the offer it is for. */
export const OfferRevisionForReviewSchema = OfferRevisionSchema.extend({
  offer: z.object({
    uuid: z.string(),
    title: z.string(),
    status: z.enum(OFFER_STATUSES),
    region: z.string(),
    organization: z.object({ uuid: z.string(), name: z.string() }),
  }),
});
export type OfferRevisionForReview = z.infer<typeof OfferRevisionForReviewSchema>;

/** The public offer's fields plus what only its organisation and staff see. */
export const PartnerOfferSchema = z.object({
  status: z.enum(OFFER_STATUSES),
  review_note: nullableText,
  submitted_at: nullableText,
  /** The change waiting for staff, or the last one they rejected (until the next); null otherwise. */
  revision: OfferRevisionSchema.nullable(),
  ...offerFields,
  sale_until: nullableText,
  description: z.string(),
  conditions: z.string(),
  images: z.array(PartnerImageSchema),
  price_options: z.array(PartnerPriceOptionSchema),
  created_at: z.string(),
});
export type PartnerOffer = z.infer<typeof PartnerOfferSchema>;

export const CouponViewSchema = z.object({
  uuid: z.string(),
  code: z.string(),
  state: z.enum(COUPON_STATES),
  state_label: z.string(),
  redeemed_at: nullableText,
  /** Who redeemed it at the till (the member's first name, else their email); null while not redeemed. */
  redeemed_by: nullableText,
  offer: z.object({ uuid: z.string(), title: z.string(), valid_until: nullableText }),
  option: z.object({ uuid: z.string(), title: z.string() }),
  buyer_first_name: nullableText,
  organization: z.object({ uuid: z.string(), name: z.string() }),
  sale_id: z.string(),
  paid_at: nullableText,
});
export type CouponView = z.infer<typeof CouponViewSchema>;

/** A coupon as «Ventas» lists it; `buyer_email_hint` («lu…@correo.es») names a buyer who gave no name. */
export const SaleRowSchema = CouponViewSchema.extend({ buyer_email_hint: z.string(), paid_price: z.string(), promo_code: nullableText });
export type SaleRow = z.infer<typeof SaleRowSchema>;

export const PromoCodeRecordSchema = z.object({
  uuid: z.string(),
  code: z.string(),
  discount_type: z.string(),
  discount_value: z.string(),
  valid_from: nullableText,
  valid_until: nullableText,
  max_uses: z.number().int().nullable(),
  per_customer_limit: z.number().int().nullable(),
  used_count: z.number().int(),
  offer: nullableText,
  offer_title: nullableText,
  created_at: z.string(),
});
export type PromoCodeRecord = z.infer<typeof PromoCodeRecordSchema>;
export const PromoCodeListSchema = z.object({ results: z.array(PromoCodeRecordSchema) });

export const OrganizationSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  tax_id: nullableText,
  email: nullableText,
  phone: nullableText,
  website: nullableText,
  address: z.string(),
  province: nullableText,
  logo: nullableText,
  created_at: z.string(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const MemberSchema = z.object({
  user_id: z.string(),
  email: nullableText,
  first_name: nullableText,
  role: z.enum(PARTNER_ROLES),
  created_at: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberListSchema = z.object({ results: z.array(MemberSchema) });

/** An invitation still open: it becomes a member when someone logged in with the address accepts. */
export const InvitationSchema = z.object({ uuid: z.string(), email: z.string(), role: z.enum(PARTNER_ROLES), expires_at: z.string() });
export type Invitation = z.infer<typeof InvitationSchema>;
/** GET /organizations/{id}/members/: the members, and the invitations not yet accepted. */
export const TeamSchema = z.object({ results: z.array(MemberSchema), invitations: z.array(InvitationSchema) });

/** GET /organizations/memberships/: the caller's organisations and its role in each. */
export const MembershipsSchema = z.object({
  results: z.array(z.object({ uuid: z.string(), name: z.string(), role: z.enum(PARTNER_ROLES) })),
});

/** GET /invitations/{token}/ and its acceptance. */
export const InvitationViewSchema = z.object({
  organization: z.object({ uuid: z.string(), name: z.string() }),
  role: z.enum(PARTNER_ROLES),
  role_label: z.string(),
  accepted: z.boolean(),
});

/** GET /organizations/{id}/: the members only for staff. */
export const OrganizationWithMembersSchema = OrganizationSchema.extend({ members: z.array(MemberSchema).optional() });

/**
 * A page of the partner's coupons (refunded ones too); the totals are of every coupon the filter
 * matches: `coupons` sold and not refunded, `refunded`, `redeemed`, and the revenue of the sold.
 */
export const PartnerSalesSchema = pageOf(SaleRowSchema).extend({
  totals: z.object({ coupons: z.number().int(), refunded: z.number().int(), redeemed: z.number().int(), revenue: z.string() }),
});
export type PartnerSales = z.infer<typeof PartnerSalesSchema>;

/** One Madrid day of «Ventas»' chart: coupons sold that day (not refunded since) and coupons redeemed that day. */
export const SalesDaySchema = z.object({ day: z.string(), sold: z.number().int(), redeemed: z.number().int() });
export type SalesDay = z.infer<typeof SalesDaySchema>;
/** «Ventas» per day over the same filter as its rows; days with neither are left out; they add up to the page's totals. */
export const SalesPerDaySchema = z.object({ results: z.array(SalesDaySchema) });

export const PartnerLeadRecordSchema = z.object({
  uuid: z.string(),
  business_name: z.string(),
  contact_name: z.string(),
  email: z.string(),
  phone: z.string(),
  province: z.string(),
  category: z.string(),
  message: z.string(),
  status: z.string(),
  created_at: z.string(),
});
export type PartnerLeadRecord = z.infer<typeof PartnerLeadRecordSchema>;

/**
 * GET /sales/refund_required/: the sales that owe their buyer a refund (staff). can_refund: the
 * provider gives the money back from the shop (POST /sales/refund/{id}/), else by hand in its
 * panel; last_attempt: the last time the shop asked it to.
 */
export const RefundRequiredSaleSchema = z.object({
  sale_id: z.string(),
  email: z.string(),
  total: z.string(),
  currency: z.string(),
  provider: z.string(),
  created_at: z.string(),
  paid_at: nullableText,
  can_refund: z.boolean(),
  last_attempt: z
    .object({ status: z.enum(["pending", "refunded", "refused", "unknown"]), detail: nullableText, at: z.string() })
    .nullable(),
});
export type RefundRequiredSale = z.infer<typeof RefundRequiredSaleSchema>;

const Entries = z.array(z.object({ value: z.string(), label: z.string() }));
/** GET /offers/dictionaries/: the lists of rules/ with their Spanish labels. */
export const DictionariesSchema = z.object({
  categories: Entries,
  provinces: Entries,
  offer_types: Entries,
  discount_types: Entries,
  payment_flows: Entries,
  offer_statuses: Entries,
  coupon_states: Entries,
});

/** GET /users/ (staff): the accounts found. */
export const UserListSchema = z.object({ results: z.array(AccountUserSchema) });

/** POST /sales/become_partner/: the request is kept (or quietly dropped, as a bot's would be). */
export const ReceivedSchema = z.object({ received: z.literal(true) });

export const OfferRevisionPageSchema = pageOf(OfferRevisionForReviewSchema);
export const PartnerOfferPageSchema = pageOf(PartnerOfferSchema);
export const OrganizationPageSchema = pageOf(OrganizationSchema);
export const PartnerLeadPageSchema = pageOf(PartnerLeadRecordSchema);
export const RefundRequiredPageSchema = pageOf(RefundRequiredSaleSchema);
