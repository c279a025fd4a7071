import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { SEARCH_MIN_CHARS } from "#rules/constants";
import { isUuid } from "#rules/uuid";
import { SearchResults } from "#app/components/search-dialog";
import { offersApi } from "#app/api-client/client.server";
import { commitSession, getSession, recentSearches, rememberSearch, sessionRegion } from "#app/state/session.server";
import { seo } from "#app/document/seo";
import { readForm } from "#app/forms/form.server";
import { skipAfterFailure } from "#app/forms/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

const SEARCH_POPULAR_COUNT = 4;

export const meta: MetaFunction = () => seo({ title: "Buscar", description: "Busca ofertas por nombre o tipo de plan.", noindex: true });

type Brief = { uuid: string; title: string; region: string };
/** `failed`: the search could not be made (the API or the network failed): the list is empty for that reason. */
export type SearchData = { query: string; results: Brief[]; recent: { uuid: string; title: string }[]; popular: Brief[]; failed?: true };

const brief = (o: Brief): Brief => ({ uuid: o.uuid, title: o.title, region: o.region });

/**
 * Serves both the no-JS search page and the dialog's fetcher. With fewer than 3 characters it
 * answers the recent searches and popular offers; a failed search is an empty list that says why.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<SearchData> {
  const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const session = await getSession(request);
  const region = sessionRegion(session).value;
  if (query.trim().length >= SEARCH_MIN_CHARS) {
    try {
      const results = (await offersApi.list({ search: query.trim(), page_size: 8, region }, request.signal)).results.map(brief);
      return { query, results, recent: [], popular: [] };
    } catch {
      return { query, results: [], recent: [], popular: [], failed: true };
    }
  }
  // «Populares ahora» (the most bought this week); a shop with no sales yet shows its recommended ones.
  const popular = await offersApi
    .popular({ page_size: SEARCH_POPULAR_COUNT, region })
    .then((r) => (r.results.length ? r.results : offersApi.mainpage({ page_size: SEARCH_POPULAR_COUNT, region }).then((m) => m.results)))
    .then((list) => list.map(brief))
    .catch(() => []);
  return { query, results: [], recent: recentSearches(session), popular };
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

/** Opening a result: remember it (newest first, no repeats, four at most), then go to the offer. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const uuid = String(formData.get("uuid") ?? "");
  const title = String(formData.get("title") ?? "").slice(0, 120);
  if (!isUuid(uuid)) return redirect("/buscar", 303);
  const session = await getSession(request);
  rememberSearch(session, { uuid: uuid.toLowerCase(), title: title || "Oferta" });
  return redirect(`/ofertas/${uuid.toLowerCase()}/`, { status: 303, headers: { "Set-Cookie": await commitSession(session) } });
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
