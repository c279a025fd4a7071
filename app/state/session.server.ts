import type { Session } from "@remix-run/node";
import { z } from "zod";
import { GIFT_TYPED_MAX } from "#rules/gifts";
import { ANONYMOUS_FAVORITES_MAX } from "#rules/accounts";
import { RECENT_SEARCHES_MAX, RECENTLY_VIEWED_MAX } from "#rules/constants";
import { regionFromValue, type Region } from "#rules/regions";
import { SOCIAL_PROVIDERS } from "#rules/social";
import type { FunnelEvent } from "#rules/tracking";
import { cookies } from "./cookies.server";

/**
 * A message for the next page. `field` ties it to a control on that page, which shows it in place
 * (under the promo-code field, in the offer's «Añadido» bar); `value` is what the buyer had typed.
 */
export type Toast = { type: "success" | "error"; text: string; field?: ToastField; value?: string };
export const TOAST_FIELDS = ["promo_code", "cart", "gift"] as const;
export type ToastField = (typeof TOAST_FIELDS)[number];

const RecentSearch = z.object({ uuid: z.string().uuid(), title: z.string().max(120) });
export type RecentSearch = z.infer<typeof RecentSearch>;

const Fields = {
  region: z.string().max(60),
  favorites: z.array(z.string().uuid()).max(ANONYMOUS_FAVORITES_MAX),
  recent: z.array(RecentSearch).max(RECENT_SEARCHES_MAX),
  viewed: z.array(z.string().uuid()).max(RECENTLY_VIEWED_MAX),
  toasts: z
    .array(
      z.object({
        type: z.enum(["success", "error"]),
        text: z.string().max(300),
        field: z.enum(TOAST_FIELDS).optional(),
        // What was typed, to show again beside the refusal: a code, or a gift's fields (rules/gifts.ts).
        value: z.string().max(GIFT_TYPED_MAX).optional(),
      }),
    )
    .max(5),
  events: z
    .array(
      z.object({
        id: z.string().max(40),
        name: z.string().max(60),
        properties: z.record(z.union([z.string().max(300), z.number(), z.boolean(), z.null()])),
      }),
    )
    .max(10),
  authData: z.object({
    commonData: z.object({
      access: z.string().max(2000).optional(),
      refresh: z.string().max(2000).optional(),
      token_expired_at: z.number().optional(),
      isAuth: z.boolean().optional(),
      email: z.string().max(254),
    }),
  }),
  loginEmail: z.string().max(254),
  /**
   * A social login under way (app/routes/login+shared/social-login.server.ts): what its callback must match. The
   * PKCE verifier is not here: the server derives it from the state.
   */
  socialLogin: z.object({
    provider: z.enum(SOCIAL_PROVIDERS),
    state: z.string().max(100),
    nonce: z.string().max(100),
    redirectTo: z.string().max(2000),
    startedAt: z.number(),
  }),
  // /cuenta: the new address waiting for its code.
  newEmail: z.string().max(254),
  /**
   * /login/registro: the ticket the API gave this browser's registration; activating here with it
   * keeps the password chosen in this browser (from another device, the password is not kept).
   */
  registration: z.object({ email: z.string().max(254), token: z.string().max(200) }),
};

export async function getSession(request: Request): Promise<Session> {
  return cookies().session.getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: Session): Promise<string> {
  return cookies().session.commitSession(session);
}

/**
 * Each field is checked on read, so a session with an unexpected shape reads as empty fields. An
 * absent field is absent without asking zod: a failed parse builds an error with its issues, and an
 * anonymous page reads five absent fields on every request.
 */
export function field<K extends keyof typeof Fields>(session: Session, key: K): z.infer<(typeof Fields)[K]> | undefined {
  const value: unknown = session.get(key);
  if (value === undefined) return undefined;
  const parsed = Fields[key].safeParse(value);
  return parsed.success ? (parsed.data as z.infer<(typeof Fields)[K]>) : undefined;
}

export function sessionRegion(session: Session): Region {
  return regionFromValue(field(session, "region"));
}

export function setRegion(session: Session, value: string) {
  const region = regionFromValue(value);
  if (region.value) session.set("region", region.value);
  else session.unset("region");
}

export function favorites(session: Session): string[] {
  return field(session, "favorites") ?? [];
}

export function setFavorites(session: Session, ids: string[]) {
  if (ids.length) session.set("favorites", ids.slice(0, ANONYMOUS_FAVORITES_MAX));
  else session.unset("favorites");
}

export function recentSearches(session: Session): RecentSearch[] {
  return field(session, "recent") ?? [];
}

/** Newest first, at most four, an offer already in the list moves to the top instead of repeating. */
export function addRecentSearch(list: RecentSearch[], item: RecentSearch): RecentSearch[] {
  return [item, ...list.filter((r) => r.uuid !== item.uuid)].slice(0, RECENT_SEARCHES_MAX);
}

export function rememberSearch(session: Session, item: RecentSearch) {
  session.set("recent", addRecentSearch(recentSearches(session), item));
}

/** One-shot messages: shown by the next page (toast with JS, role="status" without). */
/** «Vistas recientemente»: the offers this visitor opened, newest first. */
export function recentlyViewed(session: Session): string[] {
  return field(session, "viewed") ?? [];
}

/** Puts the offer first (no repeats, RECENTLY_VIEWED_MAX at most); true when the list changed. */
export function rememberViewed(session: Session, uuid: string): boolean {
  const list = recentlyViewed(session);
  if (list[0] === uuid) return false;
  session.set("viewed", [uuid, ...list.filter((id) => id !== uuid)].slice(0, RECENTLY_VIEWED_MAX));
  return true;
}

export function flash(session: Session, toast: Toast) {
  const current = (session.get("toasts") as Toast[] | undefined) ?? [];
  session.flash("toasts", [...current, toast].slice(-5));
}

export function takeToasts(session: Session): Toast[] {
  return field(session, "toasts") ?? [];
}

/**
 * Funnel events of an action (only ever recorded with consent, see tracking.server.ts), handed
 * to the next page's analytics like a toast: one-shot, and they survive a no-JS redirect.
 */
export function flashEvents(session: Session, events: FunnelEvent[]) {
  const current = (field(session, "events") ?? []) as FunnelEvent[];
  session.flash("events", [...current, ...events].slice(-10));
}

export function takeEvents(session: Session): FunnelEvent[] {
  return (field(session, "events") ?? []) as FunnelEvent[];
}

/** The Set-Cookie value that carries one more message (and any funnel events) to the next page. */
export async function toastCookie(request: Request, toast: Toast | undefined, events: FunnelEvent[] = []): Promise<string> {
  const session = await getSession(request);
  if (toast) flash(session, toast);
  if (events.length) flashEvents(session, events);
  return commitSession(session);
}

/** Redirect with a flash message, answering 303 so a form post becomes a GET. */
export async function redirectWithToast(
  to: string,
  toast: Toast,
  request: Request,
  init: { headers?: HeadersInit; events?: FunnelEvent[] } = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(request, toast, init.events));
  headers.set("Location", to);
  return new Response(null, { status: 303, headers });
}
