import { redirect } from "@remix-run/node";
import type { Role } from "#rules/roles";
import { PARTNER_ACTIONS, partnerCan, type PartnerAction, type PartnerRole } from "#rules/partner-roles";
import {
  CouponViewSchema,
  InvitationSchema,
  InvitationViewSchema,
  MemberListSchema,
  MembershipsSchema,
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
  TeamSchema,
  PromoCodeListSchema,
  PromoCodeRecordSchema,
  RefundRequiredPageSchema,
  UserListSchema,
} from "#contract/partner-responses";
import { RefundAnswerSchema } from "#contract/sales";
import { RefundDecisionAnswerSchema, RefundRequestPageSchema, type RefundDecision } from "#contract/refunds";
import { MonthlyRunSchema, PartnerTermsSchema, StatementLinePageSchema, StatementPageSchema, StatementSchema } from "#contract/statements";
import { PAGE_SIZE_MAX } from "#rules/constants";
import { api, ApiError, apiFile, NoContent } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { FoundCouponsSchema, TodayRedemptionsSchema } from "#contract/till";
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

export const FORBIDDEN = "No tienes permiso para hacer esto.";

/** An API 404 (not theirs, or gone) is the page's 404 too; its 403 (not for this role), a 403 page with its reason. */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response("Not Found", { status: 404 });
    if (error instanceof ApiError && error.status === 403) throw new Response(error.message || FORBIDDEN, { status: 403 });
    throw error;
  }
}

/** What the caller's roles allow, in any of its organisations (rules/partner-roles.ts): the portal's links. */
export type PartnerPowers = Record<PartnerAction, boolean>;
export function powersOf(memberships: { role: PartnerRole }[]): PartnerPowers {
  const can = (action: PartnerAction) => memberships.some((m) => partnerCan(m.role, action));
  return Object.fromEntries(PARTNER_ACTIONS.map((a) => [a, can(a)])) as PartnerPowers;
}

/**
 * A partner page for this action: the member's roles are read from the API (which decides), and a
 * role that may not gets the 403 page, the way the API itself would answer the page's calls.
 */
export async function requirePartnerTo(request: Request, action: PartnerAction) {
  const me = await requirePartner(request);
  const { results } = await orNotFound(partnerApi(request).memberships());
  // No organisation yet: the pages show their empty states, as before roles.
  if (results.length > 0 && !results.some((m) => partnerCan(m.role, action))) throw new Response(FORBIDDEN, { status: 403 });
  return { me, memberships: results };
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
  memberships: () => api("/organizations/memberships/", MembershipsSchema, { request }),
  team: (id: string) => api(`/organizations/${id}/members/`, TeamSchema, { request }),
  changeRole: (id: string, userId: string, role: PartnerRole) =>
    api(`/organizations/${id}/members/${userId}/`, MemberListSchema, { method: "PATCH", body: { role }, request }),
  invite: (id: string, body: { email: string; role: PartnerRole }) =>
    api(`/organizations/${id}/invitations/`, InvitationSchema, { method: "POST", body, request }),
  cancelInvitation: (id: string, invitation: string) =>
    api(`/organizations/${id}/invitations/${invitation}/`, NoContent, { method: "DELETE", request }),
  invitation: (token: string) => api(`/invitations/${encodeURIComponent(token)}/`, InvitationViewSchema, { request }),
  acceptInvitation: (token: string) =>
    api(`/invitations/${encodeURIComponent(token)}/accept/`, InvitationViewSchema, { method: "POST", request }),
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
  undoRedemption: (id: string) => api(`/sales/redeem/${id}/undo/`, CouponViewSchema, { method: "POST", request }),
  redeemedToday: () => api("/sales/today/", TodayRedemptionsSchema, { request }),
  findCoupons: (q: string) => api("/sales/search/", FoundCouponsSchema, { request, query: { q } }),
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
  terms: (org: string) => api(`/organizations/${org}/terms/`, PartnerTermsSchema, { request }),
  setCommission: (org: string, body: unknown) =>
    api(`/organizations/${org}/commission/`, PartnerTermsSchema, { method: "POST", body, request }),
  setPayableOn: (org: string, body: unknown) =>
    api(`/organizations/${org}/payable_on/`, PartnerTermsSchema, { method: "POST", body, request }),
  setIban: (org: string, body: unknown) =>
    api(`/organizations/${org}/payout_account/`, PartnerTermsSchema, { method: "PUT", body, request }),
  statements: (query: Query = {}) => api("/statements/", StatementPageSchema, { request, query }),
  statement: (id: string) => api(`/statements/${id}/`, StatementSchema, { request }),
  statementLines: (id: string, query: Query = {}) => api(`/statements/${id}/lines/`, StatementLinePageSchema, { request, query }),
  statementFile: (id: string, ext: "csv" | "pdf") => apiFile(`/statements/${id}/statement.${ext}`, { request }),
  issueStatement: (body: unknown) => api("/statements/", StatementSchema, { method: "POST", body, request }),
  issueMonth: (month: string) => api("/statements/month/", MonthlyRunSchema, { method: "POST", body: { month }, request }),
  payStatement: (id: string, body: unknown) => api(`/statements/${id}/payout/`, StatementSchema, { method: "POST", body, request }),
});

export type { RefundRequiredSale as RefundSale } from "#contract/partner-responses";
