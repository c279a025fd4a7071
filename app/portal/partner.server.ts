import { redirect } from "@remix-run/node";
import type { AccountUser } from "#rules/accounts";
import type { Role } from "#rules/roles";
import type {
  CouponView,
  Member,
  OfferRevision,
  OfferRevisionForReview,
  Organization,
  PartnerLeadRecord,
  PartnerOffer,
  PartnerSales,
  PromoCodeRecord,
} from "#contract/partner-responses";
import type { Page } from "#contract/offers";
import { PAGE_SIZE_MAX } from "#rules/constants";
import { api, ApiError, apiFile } from "#app/api-client/client.server";
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
  organizations: (query: Query = {}) => api<Page<Organization>>("/organizations/", { request, query }),
  organization: (id: string) => api<Organization & { members?: Member[] }>(`/organizations/${id}/`, { request }),
  createOrganization: (body: unknown) => api<Organization>("/organizations/", { method: "POST", body, request }),
  updateOrganization: (id: string, body: unknown) => api<Organization>(`/organizations/${id}/`, { method: "PUT", body, request }),
  addMember: (id: string, email: string) =>
    api<{ results: Member[] }>(`/organizations/${id}/members/`, { method: "POST", body: { email }, request }),
  removeMember: (id: string, userId: string) => api<null>(`/organizations/${id}/members/${userId}/`, { method: "DELETE", request }),
  offers: (query: Query = {}) => api<Page<PartnerOffer>>("/offers/", { request, query: { page_size: PAGE_SIZE_MAX, ...query } }),
  offer: (id: string) => api<PartnerOffer>(`/offers/${id}/`, { request }),
  createOffer: (body: unknown) => api<PartnerOffer>("/offers/", { method: "POST", body, request }),
  updateOffer: (id: string, body: unknown) => api<PartnerOffer>(`/offers/${id}/`, { method: "PATCH", body, request }),
  deleteOffer: (id: string) => api<null>(`/offers/${id}/`, { method: "DELETE", request }),
  /** Changes to offers on sale waiting for staff, oldest first. */
  revisions: (query: Query = {}) => api<Page<OfferRevisionForReview>>("/offers/revisions/", { request, query }),
  decideRevision: (id: string, body: { status: "approved" } | { status: "rejected"; review_note: string }) =>
    api<OfferRevision>(`/offers/revisions/${id}/`, { method: "PATCH", body, request }),
  withdrawRevision: (id: string) => api<null>(`/offers/revisions/${id}/`, { method: "DELETE", request }),
  /** The picture goes on as the browser sent it, multipart; a phone's 5 MB takes a while to resize. */
  uploadImage: (fields: { offer: string; image: File; cover: boolean; logo: boolean; alt: string }) => {
    const body = new FormData();
    body.set("offer", fields.offer);
    body.set("cover", String(fields.cover));
    body.set("logo", String(fields.logo));
    body.set("alt", fields.alt);
    body.set("image", fields.image, fields.image.name);
    return api<unknown>("/offers/images/", { method: "POST", body, request, signal: AbortSignal.timeout(60_000) });
  },
  updateImage: (id: string, body: unknown) => api<unknown>(`/offers/images/${id}/`, { method: "PATCH", body, request }),
  deleteImage: (id: string) => api<null>(`/offers/images/${id}/`, { method: "DELETE", request }),
  verifyCoupon: (code: string) => api<CouponView>("/verification/coupon/", { method: "POST", body: { code }, request }),
  redeem: (id: string) => api<CouponView>(`/sales/redeem/${id}/`, { method: "POST", request }),
  sales: (query: Query = {}) => api<PartnerSales>("/sales/partner/", { request, query }),
  salesCsv: (query: Query = {}) => apiFile("/sales/partner/", { request, query: { ...query, format: "csv" } }),
  promoCodes: (query: Query = {}) => api<{ results: PromoCodeRecord[] }>("/promocodes/", { request, query }),
  promoCode: (id: string) => api<PromoCodeRecord>(`/promocodes/${id}/`, { request }),
  createPromoCode: (body: unknown) => api<PromoCodeRecord>("/promocodes/", { method: "POST", body, request }),
  updatePromoCode: (id: string, body: unknown) => api<PromoCodeRecord>(`/promocodes/${id}/`, { method: "PUT", body, request }),
  deletePromoCode: (id: string) => api<null>(`/promocodes/${id}/`, { method: "DELETE", request }),
  users: (query: Query = {}) => api<{ results: AccountUser[] }>("/users/", { request, query }),
  deleteUser: (id: string) => api<null>(`/users/${id}/`, { method: "DELETE", request }),
  leads: (query: Query = {}) => api<Page<PartnerLeadRecord>>("/partner-leads/", { request, query }),
  refundRequired: (query: Query = {}) => api<Page<RefundSale>>("/sales/refund_required/", { request, query }),
});

export type RefundSale = { sale_id: string; email: string; total: string; created_at: string; paid_at: string | null; provider: string };
