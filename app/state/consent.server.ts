import { cookiesToRemove, readChoice, withdrawn, type ConsentChoice } from "#rules/consent";
import { consentCookie, cookieNames, readCookie } from "./cookies.server";

export function getConsent(request: Request): Promise<ConsentChoice | null> {
  return readCookie(consentCookie(), request, readChoice);
}

/**
 * The headers that store a new choice. Withdrawing a category also expires the cookies its tools
 * set, on this host and on its parent domains (Google tags set theirs on ".example.es"), and with
 * analytics withdrawn clears this origin's storage, where Amplitude keeps its identity and its
 * unsent events (the shop itself keeps nothing there: its state is in cookies).
 */
export async function consentHeaders(request: Request, before: ConsentChoice | null, after: ConsentChoice): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await consentCookie().serialize(after));
  const gone = withdrawn(before, after);
  if (gone.length === 0) return headers;
  const host = new URL(request.url).hostname;
  const labels = host.split(".");
  // example.es and www.example.es for www.example.es; no Domain attribute for localhost or an IP.
  const domains = /^[\d.]+$|^\[|^localhost$/.test(host) ? [] : labels.slice(0, -1).map((_, i) => labels.slice(i).join("."));
  for (const name of cookiesToRemove(cookieNames(request.headers.get("Cookie")), gone)) {
    const expired = `${name}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
    headers.append("Set-Cookie", expired);
    for (const domain of domains) headers.append("Set-Cookie", `${expired}; Domain=${domain}`);
  }
  if (gone.includes("analytics")) headers.set("Clear-Site-Data", '"storage"');
  return headers;
}
