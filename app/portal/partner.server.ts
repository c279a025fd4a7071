import { redirect } from "@remix-run/node";
import type { Role } from "#rules/roles";
import {
  CouponViewSchema,
  MemberListSchema,
  OfferRevisionPageSchema,
  OfferRevisionSchema,
  OrganizationPageSchema,
  OrganizationSchema,
  OrganizationWithMembersSchema,
  PartnerImageSchema,
  PartnerLeadPageSchema,
  PartnerOfferPageSchema,
  PartnerOfferSchema,
  PartnerSalesSchema,
  SalesPerDaySchema,
  PromoCodeListSchema,
  PromoCodeRecordSchema,
  RefundRequiredPageSchema,
  UserListSchema,
} from "#contract/partner-responses";
import { RefundAnswerSchema } from "#contract/sales";
import { RefundDecisionAnswerSchema, RefundRequestPageSchema, type RefundDecision } from "#contract/refunds";
import { PAGE_SIZE_MAX } from "#rules/constants";
import { api, ApiError, apiFile, NoContent } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { getSession } from "#app/state/session.server";

/**
 * The partner portal and the staff area: an anonymous visitor is sent to log in and brought back;
 * someone logged in with another role gets the plain 404 (the page does not exist for them).
 * The API checks the token again on every call, object by object; this only decides the page.
 */
export async function requireRole(request: Request, roles: readonly Role[]) {
  const me = viewer(await getSession(request));
  if (!me) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  if (!roles.includes(me.role)) throw new Response("Not Found", { status: 404 });
  return me;
}

export const requirePartner = (request: Request) => requireRole(request, ["partner"]);
export const requireStaff = (request: Request) => requireRole(request, ["staff"]);

/** An API 404 (not theirs, or gone) is the page's 404 too. */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

type Query = Record<string, string | number | undefined>;

export const partnerApi = (request: Request) => ({
  organizations: (query: Query = {}) => api("/organizations/", OrganizationPageSchema, { request, query }),
  organization: (id: string) => api(`/organizations/${id}/`, OrganizationWithMembersSchema, { request }),
  createOrganization: (body: unknown) => api("/organizations/", OrganizationSchema, { method: "POST", body, request }),
  updateOrganization: (id: string, body: unknown) => api(`/organizations/${id}/`, OrganizationSchema, { method: "PUT", body, request }),
  addMember: (id: string, email: string) =>
    api(`/organizations/${id}/members/`, MemberListSchema, { method: "POST", body: { email }, request }),
  removeMember: (id: string, userId: string) => api(`/organizations/${id}/members/${userId}/`, NoContent, { method: "DELETE", request }),
  offers: (query: Query = {}) => api("/offers/", PartnerOfferPageSchema, { request, query: { page_size: PAGE_SIZE_MAX, ...query } }),
  offer: (id: string) => api(`/offers/${id}/`, PartnerOfferSchema, { request }),
  createOffer: (body: unknown) => api("/offers/", PartnerOfferSchema, { method: "POST", body, request }),
  updateOffer: (id: string, body: unknown) => api(`/offers/${id}/`, PartnerOfferSchema, { method: "PATCH", body, request }),
  deleteOffer: (id: string) => api(`/offers/${id}/`, NoContent, { method: "DELETE", request }),
  /** Changes to offers on sale waiting for staff, oldest first. */
  revisions: (query: Query = {}) => api("/offers/revisions/", OfferRevisionPageSchema, { request, query }),
  decideRevision: (id: string, body: { status: "approved" } | { status: "rejected"; review_note: string }) =>
    api(`/offers/revisions/${id}/`, OfferRevisionSchema, { method: "PATCH", body, request }),
  withdrawRevision: (id: string) => api(`/offers/revisions/${id}/`, NoContent, { method: "DELETE", request }),
  /** The picture goes on as the browser sent it, multipart; a phone's 5 MB takes a while to resize. */
  uploadImage: (fields: { offer: string; image: File; cover: boolean; logo: boolean; alt: string }) => {
    const body = new FormData();
    body.set("offer", fields.offer);
    body.set("cover", String(fields.cover));
    body.set("logo", String(fields.logo));
    body.set("alt", fields.alt);
    body.set("image", fields.image, fields.image.name);
    return api("/offers/images/", PartnerImageSchema, { method: "POST", body, request, signal: AbortSignal.timeout(60_000) });
  },
  updateImage: (id: string, body: unknown) => api(`/offers/images/${id}/`, PartnerImageSchema, { method: "PATCH", body, request }),
  deleteImage: (id: string) => api(`/offers/images/${id}/`, NoContent, { method: "DELETE", request }),
  verifyCoupon: (code: string) => api("/verification/coupon/", CouponViewSchema, { method: "POST", body: { code }, request }),
  redeem: (id: string) => api(`/sales/redeem/${id}/`, CouponViewSchema, { method: "POST", request }),
  sales: (query: Query = {}) => api("/sales/partner/", PartnerSalesSchema, { request, query }),
  salesPerDay: (query: Query = {}) => api("/sales/partner/per_day/", SalesPerDaySchema, { request, query }),
  salesCsv: (query: Query = {}) => apiFile("/sales/partner/", { request, query: { ...query, format: "csv" } }),
  promoCodes: (query: Query = {}) => api("/promocodes/", PromoCodeListSchema, { request, query }),
  promoCode: (id: string) => api(`/promocodes/${id}/`, PromoCodeRecordSchema, { request }),
  createPromoCode: (body: unknown) => api("/promocodes/", PromoCodeRecordSchema, { method: "POST", body, request }),
  updatePromoCode: (id: string, body: unknown) => api(`/promocodes/${id}/`, PromoCodeRecordSchema, { method: "PUT", body, request }),
  deletePromoCode: (id: string) => api(`/promocodes/${id}/`, NoContent, { method: "DELETE", request }),
  users: (query: Query = {}) => api("/users/", UserListSchema, { request, query }),
  deleteUser: (id: string) => api(`/users/${id}/`, NoContent, { method: "DELETE", request }),
  leads: (query: Query = {}) => api("/partner-leads/", PartnerLeadPageSchema, { request, query }),
  refundRequired: (query: Query = {}) => api("/sales/refund_required/", RefundRequiredPageSchema, { request, query }),
  /** The sale's money back to the buyer through its provider (Redsys's REST refund, the sandbox). */
  refund: (saleId: string) => api(`/sales/refund/${saleId}/`, RefundAnswerSchema, { method: "POST", request }),
  /** Buyers' «Solicitar devolución» waiting for staff (out of the window, a gift, the provider said no). */
  refundRequests: (query: Query = {}) => api("/sales/refund_requests/", RefundRequestPageSchema, { request, query }),
  decideRefund: (id: string, body: RefundDecision) =>
    api(`/sales/refund_requests/${id}/`, RefundDecisionAnswerSchema, { method: "POST", body, request }),
});

export type { RefundRequiredSale as RefundSale } from "#contract/partner-responses";
