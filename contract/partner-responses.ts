/**
 * Answers of the partner and staff side of /api/v0. The API produces them and the /socios and
 * /admin screens read them; both import from here so the storefront needs nothing from `api/`.
 */
import type { CouponState } from "#rules/coupons";
import type { OfferStatus } from "#rules/offer-status";
import type { RevisionChanges, RevisionStatus } from "#rules/offer-revisions";
import type { OfferImage, Page } from "#contract/offers";

/** A picture as the public API shows it, with its id and every rendition in place of the small one. */
export type PartnerImage = Omit<OfferImage, "small_url"> & {
  uuid: string;
  variants: { url: string; width: number; height: number }[];
};

export type PartnerPriceOption = {
  uuid: string;
  title: string;
  actual_price: string;
  regular_price: string;
  available: number;
  per_customer: number | null;
  /** Tickets paid or reserved: what a price change must never touch. */
  sold: number;
};

/** A change to an approved offer's words or prices (rules/offer-revisions.ts). */
export type OfferRevision = {
  uuid: string;
  status: RevisionStatus;
  submitted_at: string;
  reviewed_at: string | null;
  /** Why staff rejected it. */
  review_note: string | null;
  /** What the partner proposed: only what differs from the live offer. */
  changes: RevisionChanges;
  /** The live values of the same fields (and options), to show beside them. */
  current: RevisionChanges;
};

/** Staff's queue of changes: each with the offer it is for. */
export type OfferRevisionForReview = OfferRevision & {
  offer: { uuid: string; title: string; status: OfferStatus; region: string; organization: { uuid: string; name: string } };
};

/** The public offer's fields plus what only its organisation and staff see. */
export type PartnerOffer = {
  uuid: string;
  status: OfferStatus;
  review_note: string | null;
  submitted_at: string | null;
  /** The change waiting for staff, or the last one they rejected (until the next); null otherwise. */
  revision: OfferRevision | null;
  title: string;
  summary: string;
  description: string;
  conditions: string;
  category: string;
  region: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  offer_type: string;
  valid_from: string | null;
  valid_until: string | null;
  organization: { uuid: string; name: string };
  images: PartnerImage[];
  price_options: PartnerPriceOption[];
  created_at: string;
};

export type CouponView = {
  uuid: string;
  code: string;
  state: CouponState;
  state_label: string;
  redeemed_at: string | null;
  offer: { uuid: string; title: string; valid_until: string | null };
  option: { uuid: string; title: string };
  buyer_first_name: string | null;
  organization: { uuid: string; name: string };
  sale_id: string;
  paid_at: string | null;
};

export type SaleRow = CouponView & { paid_price: string; promo_code: string | null };

export type PromoCodeRecord = {
  uuid: string;
  code: string;
  discount_type: string;
  discount_value: string;
  valid_from: string | null;
  valid_until: string | null;
  max_uses: number | null;
  per_customer_limit: number | null;
  used_count: number;
  offer: string | null;
  offer_title: string | null;
  created_at: string;
};

export type Organization = {
  uuid: string;
  name: string;
  tax_id: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  address: string;
  province: string | null;
  logo: string | null;
  created_at: string;
};

export type Member = { user_id: string; email: string | null; first_name: string | null; created_at: string };

/** A page of the partner's coupons; the totals are of every coupon the filter matches. */
export type PartnerSales = Page<SaleRow> & { totals: { coupons: number; redeemed: number; revenue: string } };

export type PartnerLeadRecord = {
  uuid: string;
  business_name: string;
  contact_name: string;
  email: string;
  phone: string;
  province: string;
  category: string;
  message: string;
  status: string;
  created_at: string;
};
