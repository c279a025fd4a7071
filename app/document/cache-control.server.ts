/**
 * Cache-Control of a document. A page a CDN may share is a shared page (below) answered to a
 * visitor who sent no cookie and no credentials: then it shows no cart, no login, no region of
 * theirs and no message for them, and is the same for everyone with that URL. Everything else is
 * private. Listing data is one minute fresh (spec section 9), so shared caches keep it a minute
 * and may serve it stale while refreshing.
 */
export const PUBLIC_PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const PRIVATE_PAGE = "private, no-cache";

/**
 * A page that opted in (route handle `publicCache`), answered 200 to a read and sets no cookie:
 * what it shows depends only on its URL and on what the visitor's request says about them.
 */
export function isSharedPage(method: string, status: number, headers: Headers, publicCache: boolean | undefined): boolean {
  // HEAD answers with GET's headers (RFC 9110 §9.3.2): a CDN that checks a page with HEAD must
  // not be told the page is private when its GET is public.
  const read = method === "GET" || method === "HEAD";
  return Boolean(publicCache) && status === 200 && read && !headers.has("set-cookie");
}

/** A request that carries nothing of its visitor's: no cookie, no credentials. */
export const isAnonymous = (has: (header: string) => boolean) => !has("cookie") && !has("authorization");

export function documentCacheControl(request: Request, status: number, headers: Headers, publicCache: boolean | undefined): string {
  const shared = isSharedPage(request.method, status, headers, publicCache);
  return shared && isAnonymous((name) => request.headers.has(name)) ? PUBLIC_PAGE : PRIVATE_PAGE;
}
