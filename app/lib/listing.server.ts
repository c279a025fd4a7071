import { data } from "@remix-run/node";
import { PAGE_SIZE_DEFAULT } from "#lib/constants";
import { ApiError, offersApi, type OfferQuery } from "./api.server";
import { toCard } from "./offer-card";
import { getSession, sessionRegion } from "./session.server";

/**
 * Filters from the URL plus the visitor's region. A page number past the end or a bad value
 * in the URL gives an empty page, not an error page.
 */
export async function loadListing(request: Request, extra: OfferQuery = {}, kind: "list" | "mainpage" = "list") {
  const url = new URL(request.url);
  const session = await getSession(request);
  const region = sessionRegion(session);
  const pageParam = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const search = url.searchParams.get("search") ?? url.searchParams.get("q") ?? undefined;
  const query: OfferQuery = {
    search: search?.slice(0, 200),
    region: url.searchParams.get("region") ?? region.value,
    category: url.searchParams.get("category") ?? undefined,
    page,
    page_size: PAGE_SIZE_DEFAULT,
    ...extra,
  };
  try {
    const result = kind === "mainpage" ? await offersApi.mainpage(query) : await offersApi.listPage(query);
    return { region, search: search ?? "", listing: { count: result.count, results: result.results.map(toCard), page, pageSize: PAGE_SIZE_DEFAULT } };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      throw data({ message: error.message }, { status: 400 });
    }
    throw error;
  }
}
