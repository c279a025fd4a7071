import { isCategoryId } from "#rules/categories";
import { isProvince, regionFromValue } from "#rules/regions";
import { PAGE_SIZE_DEFAULT } from "#rules/constants";
import { ApiError, offersApi, type OfferQuery } from "#app/api-client/client.server";
import { toCard } from "#app/components/offer-card-data";
import { pageParam, redirectPastLastPage } from "#app/forms/page-param";
import { getSession, sessionRegion } from "#app/state/session.server";
import { distanceText, listingOrder } from "./listing-order.server";

/**
 * Filters from the URL plus the visitor's region. A page number past the end goes to the last
 * page (as the portals' lists do); a bad value in the URL gives page 1, not an error page.
 */
export async function loadListing(request: Request, extra: OfferQuery = {}, kind: "list" | "mainpage" = "list") {
  const url = new URL(request.url);
  const session = await getSession(request);
  // A filter the shop does not know (?region=Atlantis, ?category=x) is ignored, never an error
  // page; a known ?region= is the region the page (and its header) speaks of.
  const regionParam = url.searchParams.get("region");
  const categoryParam = url.searchParams.get("category");
  const region = isProvince(regionParam) ? regionFromValue(regionParam) : sessionRegion(session);
  const page = pageParam(url);
  const search = url.searchParams.get("search") ?? url.searchParams.get("q") ?? undefined;
  // The home page's list keeps the recommended order; listings and categories can be reordered.
  const { order, query: ordering } = kind === "list" ? listingOrder(url, region) : { order: null, query: {} };
  const query: OfferQuery = {
    search: search?.slice(0, 200),
    region: region.value,
    category: isCategoryId(categoryParam) ? categoryParam : undefined,
    page,
    page_size: PAGE_SIZE_DEFAULT,
    ...ordering,
    ...extra,
  };
  try {
    const result = kind === "mainpage" ? await offersApi.mainpage(query) : await offersApi.listPage(query);
    redirectPastLastPage(request, page, result.count, PAGE_SIZE_DEFAULT);
    const results = result.results.map((offer) => {
      const distance = order ? distanceText(order, offer) : null;
      return distance ? { ...toCard(offer), distance } : toCard(offer);
    });
    return {
      region,
      search: search ?? "",
      order,
      notice: null as string | null,
      listing: { count: result.count, results, page, pageSize: PAGE_SIZE_DEFAULT },
    };
  } catch (error) {
    // Anything else the API refuses in a listing URL: an empty list that says why.
    if (error instanceof ApiError && error.status === 400) {
      return {
        region,
        search: search ?? "",
        order,
        notice: error.message,
        listing: { count: 0, results: [], page, pageSize: PAGE_SIZE_DEFAULT },
      };
    }
    throw error;
  }
}
