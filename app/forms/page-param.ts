import { redirect } from "@remix-run/node";
import { PAGE_MAX } from "#rules/constants";

/** The page a URL's `?page=` asks for; anything but a whole number from 1 to PAGE_MAX is page 1. */
export function pageParam(url: URL): number {
  const n = Number(url.searchParams.get("page") ?? "1");
  return Number.isInteger(n) && n >= 1 && n <= PAGE_MAX ? n : 1;
}

/** `path` at the page `request` was posted from (a form's default action keeps the page's query). */
export function samePage(path: string, request: Request): string {
  const page = pageParam(new URL(request.url));
  return page > 1 ? `${path}?page=${page}` : path;
}

/**
 * Past a list's last page (its last rows were acted on from there, or the link is old), a loader
 * sends the visitor to the last page, not to «Página 3 de 2» over an empty list. An empty list
 * stays on page 1 and says it is empty.
 */
export function redirectPastLastPage(request: Request, page: number, count: number, pageSize: number): void {
  const last = Math.max(1, Math.ceil(count / pageSize));
  if (page <= last) return;
  const url = new URL(request.url);
  if (last === 1) url.searchParams.delete("page");
  else url.searchParams.set("page", String(last));
  throw redirect(`${url.pathname}${url.search}`);
}

/**
 * A paged list for a loader: the page `?page=` asks for, fetched `pageSize` at a time, and past
 * the list's end a redirect to its last page (redirectPastLastPage).
 */
export async function loadPage<T extends { count: number }>(
  request: Request,
  pageSize: number,
  fetchPage: (query: { page: number; page_size: number }) => Promise<T>,
): Promise<T & { page: number }> {
  const page = pageParam(new URL(request.url));
  const answer = await fetchPage({ page, page_size: pageSize });
  redirectPastLastPage(request, page, answer.count, pageSize);
  return { ...answer, page };
}
