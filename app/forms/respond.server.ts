import { data } from "@remix-run/node";
import type { FunnelEvent } from "#rules/tracking";
import { ENHANCED_FIELD } from "./enhanced";
import { redirectWithToast, toastCookie, type Toast } from "#app/state/session.server";

/**
 * How a mutation answers. A plain form post (no JS) gets 303 to where the user was. A fetcher
 * (the form carries _enhanced=1, added only after hydration) gets data: Remix then revalidates
 * the page in place, instead of following a redirect as a second navigation that can be cut off.
 * The message travels in the session either way, so the next render shows it.
 */
export async function finish(
  request: Request,
  formData: FormData,
  { to, toast, headers, events = [] }: { to: string; toast?: Toast; headers?: HeadersInit; events?: FunnelEvent[] },
) {
  if (formData.get(ENHANCED_FIELD) !== "1") {
    if (toast) return redirectWithToast(to, toast, request, { headers, events });
    const h = new Headers(headers);
    if (events.length) h.append("Set-Cookie", await toastCookie(request, undefined, events));
    h.set("Location", to);
    return new Response(null, { status: 303, headers: h });
  }
  const h = new Headers(headers);
  if (toast || events.length) h.append("Set-Cookie", await toastCookie(request, toast, events));
  return data({ ok: !toast || toast.type === "success" }, { headers: h });
}
