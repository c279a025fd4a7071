/**
 * Cache-Control of a document. A page a CDN may share is one that opted in (route handle
 * `publicCache`), answered 200 to a visitor who sent no cookie and no credentials, and sets none:
 * then it shows no cart, no login, no region of theirs and no message for them, and is the same
 * for everyone with that URL. Everything else is private. Listing data is one minute fresh
 * (spec section 9), so shared caches keep it a minute and may serve it stale while refreshing.
 */
export const PUBLIC_PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const PRIVATE_PAGE = "private, no-cache";

export function documentCacheControl(request: Request, status: number, headers: Headers, publicCache: boolean | undefined): string {
  const anonymous = !request.headers.has("cookie") && !request.headers.has("authorization");
  // HEAD answers with GET's headers (RFC 9110 §9.3.2): a CDN that checks a page with HEAD must
  // not be told the page is private when its GET is public.
  const read = request.method === "GET" || request.method === "HEAD";
  return publicCache && status === 200 && read && anonymous && !headers.has("set-cookie") ? PUBLIC_PAGE : PRIVATE_PAGE;
}
