import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { SEARCH_MIN_CHARS } from "#rules/constants";
import { SearchResults, type SearchData } from "#app/components/search-dialog";
import { offersApi } from "#app/api-client/client.server";
import { getSession, recentSearches, sessionRegion } from "#app/state/session.server";
import { toCard } from "#app/components/offer-card-data";
import { popularCards } from "#app/catalogue/popular.server";
import { seo } from "#app/document/seo";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import type { RouteHandle } from "#app/root";

/** «Populares ahora» and the results are cards with hearts: the layout renders the form they submit. */
export const handle: RouteHandle = { favorites: true };

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Buscar", description: "Busca ofertas por nombre o tipo de plan.", noindex: true });

/**
 * Serves both the no-JS search page and the dialog's fetcher. With fewer than 3 characters it
 * answers the recent searches and popular offers; a failed search is an empty list that says why,
 * and a search that found nothing suggests the popular offers.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<SearchData> {
  const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const session = await getSession(request);
  const region = sessionRegion(session).value;
  if (query.trim().length >= SEARCH_MIN_CHARS) {
    try {
      const results = (await offersApi.list({ search: query.trim(), page_size: 8, region }, request.signal)).results.map(toCard);
      return { query, results, recent: [], popular: results.length ? [] : await popularCards(request) };
    } catch {
      return { query, results: [], recent: [], popular: [], failed: true };
    }
  }
  return { query, results: [], recent: recentSearches(session), popular: await popularCards(request) };
}

/**
 * The dialog asks this loader as the customer types. When that request fails (offline, 500) the
 * answer is an empty list (spec section 8) that says the search failed, not the error page; a
 * request aborted because a newer one started is left to the router, which ignores it.
 */
export async function clientLoader({ serverLoader, request }: ClientLoaderFunctionArgs): Promise<SearchData> {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    if (request.signal.aborted) throw error;
    return { query: new URL(request.url).searchParams.get("q") ?? "", results: [], recent: [], popular: [], failed: true };
  }
}

export default function SearchPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="search-page">
      <h1>Buscar ofertas</h1>
      <Form method="get" role="search" className="search-form">
        <label htmlFor="search-page-input">¿Qué buscas?</label>
        <div className="search-row">
          <input
            id="search-page-input"
            name="q"
            type="search"
            defaultValue={data.query}
            minLength={SEARCH_MIN_CHARS}
            placeholder="Spa, paella, escape room…"
            autoComplete="off"
          />
          <button type="submit" className="btn">
            Buscar
          </button>
        </div>
      </Form>
      {data.query.trim().length > 0 && data.query.trim().length < SEARCH_MIN_CHARS ? (
        <p className="muted">Escribe al menos {SEARCH_MIN_CHARS} letras para buscar.</p>
      ) : null}
      <SearchResults data={data} level={2} />
    </section>
  );
}
