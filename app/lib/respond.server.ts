import { data } from "@remix-run/node";
import { commitSession, flash, getSession, type Toast } from "./session.server";

export const ENHANCED_FIELD = "_enhanced";

/**
 * How a mutation answers. A plain form post (no JS) gets 303 to where the user was. A fetcher
 * (the form carries _enhanced=1, added only after hydration) gets data: Remix then revalidates
 * the page in place, instead of following a redirect as a second navigation that can be cut off.
 * The message travels in the session either way, so the next render shows it.
 */
export async function finish(
  request: Request,
  formData: FormData,
  { to, toast, headers }: { to: string; toast?: Toast; headers?: HeadersInit },
) {
  const h = new Headers(headers);
  if (toast) {
    const session = await getSession(request);
    flash(session, toast);
    h.append("Set-Cookie", await commitSession(session));
  }
  if (formData.get(ENHANCED_FIELD) === "1") return data({ ok: !toast || toast.type === "success" }, { headers: h });
  h.set("Location", to);
  return new Response(null, { status: 303, headers: h });
}
