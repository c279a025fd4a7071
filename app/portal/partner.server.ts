import { redirect } from "@remix-run/node";
import type { Role } from "#rules/roles";
import { PARTNER_ACTIONS, partnerCan, type PartnerAction, type PartnerRole } from "#rules/partner-roles";
import { partnerImagesRoutes } from "#contract/partner-images";
import { partnerMembersRoutes } from "#contract/partner-members";
import { partnerOffersRoutes } from "#contract/partner-offers";
import { partnerOrganizationsRoutes } from "#contract/partner-organizations";
import { partnerPromoCodesRoutes } from "#contract/partner-promo-codes";
import { refundsRoutes } from "#contract/refunds";
import { statementsRoutes } from "#contract/statements";
import { partnerSalesRoutes } from "#contract/partner-sales";
import { staffUsersRoutes } from "#contract/staff-users";
import type { BodyIn, QueryIn } from "#contract/define-route";
import { PAGE_SIZE_MAX } from "#rules/constants";
import { ApiError, call, callFile } from "#app/api-client/client.server";
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

/** The «Ventas» filter and page, as GET /sales/partner/ and its chart take them. */
type SalesQuery = QueryIn<typeof partnerSalesRoutes.sales>;

export const partnerApi = (request: Request) => ({
  organizations: (query: QueryIn<typeof partnerOrganizationsRoutes.list> = {}) => call(partnerOrganizationsRoutes.list, { query, request }),
  organization: (id: string) => call(partnerOrganizationsRoutes.get, { params: { id }, request }),
  createOrganization: (body: BodyIn<typeof partnerOrganizationsRoutes.create>) =>
    call(partnerOrganizationsRoutes.create, { body, request }),
  updateOrganization: (id: string, body: BodyIn<typeof partnerOrganizationsRoutes.replace>) =>
    call(partnerOrganizationsRoutes.replace, { params: { id }, body, request }),
  addMember: (id: string, email: string) => call(partnerMembersRoutes.addMember, { params: { id }, body: { email }, request }),
  removeMember: (id: string, userId: string) => call(partnerMembersRoutes.removeMember, { params: { id, userId }, request }),
  memberships: () => call(partnerMembersRoutes.memberships, { request }),
  team: (id: string) => call(partnerMembersRoutes.team, { params: { id }, request }),
  changeRole: (id: string, userId: string, role: PartnerRole) =>
    call(partnerMembersRoutes.changeRole, { params: { id, userId }, body: { role }, request }),
  invite: (id: string, body: BodyIn<typeof partnerMembersRoutes.invite>) =>
    call(partnerMembersRoutes.invite, { params: { id }, body, request }),
  cancelInvitation: (id: string, invitationId: string) =>
    call(partnerMembersRoutes.cancelInvitation, { params: { id, invitationId }, request }),
  invitation: (token: string) => call(partnerMembersRoutes.invitation, { params: { token }, request }),
  acceptInvitation: (token: string) => call(partnerMembersRoutes.acceptInvitation, { params: { token }, request }),
  offers: (query: QueryIn<typeof partnerOffersRoutes.list> = {}) =>
    call(partnerOffersRoutes.list, { query: { page_size: PAGE_SIZE_MAX, ...query }, request }),
  offer: (id: string) => call(partnerOffersRoutes.get, { params: { id }, request }),
  createOffer: (body: BodyIn<typeof partnerOffersRoutes.create>) => call(partnerOffersRoutes.create, { body, request }),
  updateOffer: (id: string, body: BodyIn<typeof partnerOffersRoutes.update>) =>
    call(partnerOffersRoutes.update, { params: { id }, body, request }),
  deleteOffer: (id: string) => call(partnerOffersRoutes.delete, { params: { id }, request }),
  /** Changes to offers on sale waiting for staff, oldest first. */
  revisions: (query: QueryIn<typeof partnerOffersRoutes.revisions> = {}) => call(partnerOffersRoutes.revisions, { query, request }),
  decideRevision: (id: string, body: BodyIn<typeof partnerOffersRoutes.decideRevision>) =>
    call(partnerOffersRoutes.decideRevision, { params: { id }, body, request }),
  withdrawRevision: (id: string) => call(partnerOffersRoutes.withdrawRevision, { params: { id }, request }),
  /** The picture goes on as the browser sent it, multipart; a phone's 5 MB takes a while to resize. */
  uploadImage: (fields: { offer: string; image: File; cover: boolean; logo: boolean; alt: string }) => {
    const body = new FormData();
    body.set("offer", fields.offer);
    body.set("cover", String(fields.cover));
    body.set("logo", String(fields.logo));
    body.set("alt", fields.alt);
    body.set("image", fields.image, fields.image.name);
    return call(partnerImagesRoutes.upload, { body, request, signal: AbortSignal.timeout(60_000) });
  },
  updateImage: (id: string, body: BodyIn<typeof partnerImagesRoutes.update>) =>
    call(partnerImagesRoutes.update, { params: { id }, body, request }),
  deleteImage: (id: string) => call(partnerImagesRoutes.delete, { params: { id }, request }),
  verifyCoupon: (code: string) => call(partnerSalesRoutes.verifyCoupon, { body: { code }, request }),
  redeem: (id: string) => call(partnerSalesRoutes.redeem, { params: { id }, request }),
  undoRedemption: (id: string) => call(partnerSalesRoutes.undoRedemption, { params: { id }, request }),
  redeemedToday: () => call(partnerSalesRoutes.redeemedToday, { request }),
  findCoupons: (q: string) => call(partnerSalesRoutes.findCoupons, { query: { q }, request }),
  sales: (query: SalesQuery = {}) => call(partnerSalesRoutes.sales, { query, request }),
  salesPerDay: (query: SalesQuery = {}) => call(partnerSalesRoutes.salesPerDay, { query, request }),
  salesCsv: (query: SalesQuery = {}) => callFile(partnerSalesRoutes.sales, { query: { ...query, format: "csv" }, request }),
  promoCodes: (query: QueryIn<typeof partnerPromoCodesRoutes.list> = {}) => call(partnerPromoCodesRoutes.list, { query, request }),
  promoCode: (id: string) => call(partnerPromoCodesRoutes.get, { params: { id }, request }),
  createPromoCode: (body: BodyIn<typeof partnerPromoCodesRoutes.create>) => call(partnerPromoCodesRoutes.create, { body, request }),
  updatePromoCode: (id: string, body: BodyIn<typeof partnerPromoCodesRoutes.replace>) =>
    call(partnerPromoCodesRoutes.replace, { params: { id }, body, request }),
  deletePromoCode: (id: string) => call(partnerPromoCodesRoutes.delete, { params: { id }, request }),
  users: (query: QueryIn<typeof staffUsersRoutes.list> = {}) => call(staffUsersRoutes.list, { request, query }),
  deleteUser: (id: string) => call(staffUsersRoutes.erase, { params: { id }, request }),
  leads: (query: QueryIn<typeof partnerSalesRoutes.leads> = {}) => call(partnerSalesRoutes.leads, { query, request }),
  refundRequired: (query: QueryIn<typeof refundsRoutes.refundRequired> = {}) => call(refundsRoutes.refundRequired, { query, request }),
  /** The sale's money back to the buyer through its provider (Redsys's REST refund, the sandbox). */
  refund: (saleId: string) => call(refundsRoutes.refund, { params: { id: saleId }, request }),
  /** Buyers' «Solicitar devolución» waiting for staff (out of the window, a gift, the provider said no). */
  refundRequests: (query: QueryIn<typeof refundsRoutes.refundRequests> = {}) => call(refundsRoutes.refundRequests, { query, request }),
  decideRefund: (id: string, body: BodyIn<typeof refundsRoutes.decideRefund>) =>
    call(refundsRoutes.decideRefund, { params: { id }, body, request }),
  terms: (org: string) => call(statementsRoutes.terms, { params: { id: org }, request }),
  setCommission: (org: string, body: BodyIn<typeof statementsRoutes.setCommission>) =>
    call(statementsRoutes.setCommission, { params: { id: org }, body, request }),
  setPayableOn: (org: string, body: BodyIn<typeof statementsRoutes.setPayableOn>) =>
    call(statementsRoutes.setPayableOn, { params: { id: org }, body, request }),
  setIban: (org: string, body: BodyIn<typeof statementsRoutes.setIban>) =>
    call(statementsRoutes.setIban, { params: { id: org }, body, request }),
  statements: (query: QueryIn<typeof statementsRoutes.statements> = {}) => call(statementsRoutes.statements, { query, request }),
  statement: (id: string) => call(statementsRoutes.statement, { params: { id }, request }),
  statementLines: (id: string, query: QueryIn<typeof statementsRoutes.statementLines> = {}) =>
    call(statementsRoutes.statementLines, { params: { id }, query, request }),
  statementFile: (id: string, ext: "csv" | "pdf") =>
    callFile(ext === "csv" ? statementsRoutes.statementCsv : statementsRoutes.statementPdf, { params: { id }, request }),
  issueStatement: (body: BodyIn<typeof statementsRoutes.issueStatement>) => call(statementsRoutes.issueStatement, { body, request }),
  issueMonth: (month: string) => call(statementsRoutes.issueMonth, { body: { month }, request }),
  payStatement: (id: string, body: BodyIn<typeof statementsRoutes.payStatement>) =>
    call(statementsRoutes.payStatement, { params: { id }, body, request }),
});

export type { RefundRequiredSale as RefundSale } from "#contract/partner-responses";
