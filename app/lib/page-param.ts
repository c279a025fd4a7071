import { PAGE_MAX } from "#lib/constants";

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
