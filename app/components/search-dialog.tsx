import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from "#rules/constants";
import { CloseIcon, SearchIcon } from "./icons";
import type { OfferCardData } from "./offer-card-data";
import { OfferGrid } from "./offer-card";
import { offerHref } from "./offer-link";
import { CLIENT_LINK } from "./client-navigation";
import { discountBadgeText, priceInnerHtml, thumbHtml } from "./card-html";
import { Suggestions } from "./suggestions";

/**
 * What /buscar answers, to its page and to this dialog's fetcher. `failed`: the search could not
 * be made (the API or the network failed): the list is empty for that reason.
 */
export type SearchData = {
  query: string;
  results: OfferCardData[];
  recent: { uuid: string; title: string }[];
  popular: OfferCardData[];
  failed?: true;
};

/**
 * One suggestion in the dialog: a link to the offer (it opens in a new tab too) with its picture,
 * place and price; `from=search` has the offer page record it as a recent search.
 */
export function SearchResultItem({ offer }: { offer: OfferCardData | { uuid: string; title: string } }) {
  const card = "price" in offer ? offer : null;
  const discount = card?.price && !card.soldOut ? discountBadgeText(card.price.actual_price, card.price.regular_price) : null;
  return (
    <li>
      <a href={offerHref(offer.uuid, "search")} className="search-result" {...CLIENT_LINK}>
        {card ? <span className="search-thumb" dangerouslySetInnerHTML={{ __html: thumbHtml(card) }} /> : null}
        <span className="search-result-text">
          <span className="search-result-title">{offer.title}</span>
          {card ? <small>{card.region}</small> : null}
        </span>
        {card?.price ? (
          <span className="search-result-price">
            <span
              className="price"
              dangerouslySetInnerHTML={{ __html: priceInnerHtml(card.price.actual_price, card.price.regular_price) }}
            />
            {discount ? (
              <span className="discount">
                <span aria-hidden="true">{discount.badge}</span>
                <span className="visually-hidden">{discount.label}</span>
              </span>
            ) : null}
          </span>
        ) : null}
      </a>
    </li>
  );
}

export const SEARCH_FAILED_TEXT = "No hemos podido buscar ahora. Comprueba tu conexión e inténtalo de nuevo.";

/**
 * The dialog (`level` 3, under its h2) lists compact suggestions; the /buscar page (`level` 2,
 * under its h1) shows the listing's cards. Nothing found: «Populares ahora» and the categories.
 */
export function SearchResults({ data, level = 3 }: { data: SearchData; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  const page = level === 2;
  const list = (offers: SearchData["results"]) =>
    page ? (
      <OfferGrid offers={offers} level={3} from="search" eagerCount={2} />
    ) : (
      <ul className="search-list">
        {offers.map((o) => (
          <SearchResultItem key={o.uuid} offer={o} />
        ))}
      </ul>
    );
  const popular = data.popular.length ? (
    <section>
      <Heading className="search-heading">Populares ahora</Heading>
      {list(data.popular)}
    </section>
  ) : null;
  if (data.query.trim().length >= SEARCH_MIN_CHARS) {
    // An empty list says why: nothing matched, or the search could not be made at all.
    if (data.failed) return <p className="muted">{SEARCH_FAILED_TEXT}</p>;
    if (data.results.length) {
      return page ? (
        <section aria-labelledby="search-results-title">
          <h2 id="search-results-title" className="visually-hidden">
            Resultados
          </h2>
          {list(data.results)}
        </section>
      ) : (
        <ul className="search-list" aria-label="Resultados">
          {data.results.map((o) => (
            <SearchResultItem key={o.uuid} offer={o} />
          ))}
        </ul>
      );
    }
    return (
      <>
        <p className="muted">No hemos encontrado ofertas para «{data.query.trim()}».</p>
        {page ? <Suggestions popular={data.popular} from="search" /> : popular}
      </>
    );
  }
  return (
    <>
      {data.recent.length ? (
        <section>
          <Heading className="search-heading">Búsquedas recientes</Heading>
          <ul className="search-list">
            {data.recent.map((r) => (
              <SearchResultItem key={r.uuid} offer={r} />
            ))}
          </ul>
        </section>
      ) : null}
      {popular}
    </>
  );
}

/**
 * "Buscar": a link to the /buscar page without JS; with JS it opens a modal dialog that asks the same
 * loader 400 ms after typing stops. fetcher.load cancels the request in flight when a newer one starts.
 */
export function SearchButton() {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const fetcher = useFetcher<SearchData>();
  const [query, setQuery] = useState("");
  const load = fetcher.load;
  const location = useLocation();

  // The dialog lives in the layout: opening a result navigates, and the dialog must not stay open
  // on the page it led to. Only a dialog opened on another page: this effect runs a moment after
  // the new page is drawn, and «Buscar» pressed in that moment opened it on the new page.
  const openedOn = useRef<string | null>(null);
  useEffect(() => {
    if (openedOn.current !== location.key) dialog.current?.close();
  }, [location.key]);

  useEffect(() => {
    if (!dialog.current?.open) return;
    const trimmed = query.trim();
    const q = trimmed.length >= SEARCH_MIN_CHARS ? trimmed : "";
    const timer = setTimeout(() => load(`/buscar?q=${encodeURIComponent(q)}`), q ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [query, load]);

  function open(event: React.MouseEvent) {
    event.preventDefault();
    openedOn.current = location.key;
    dialog.current?.showModal();
    input.current?.focus();
    load("/buscar?q="); // fresh recent searches every time it opens
  }

  // Only answers that belong to what is typed now: recent/popular for short text, results otherwise.
  const long = query.trim().length >= SEARCH_MIN_CHARS;
  const data = fetcher.data && (fetcher.data.query === "") !== long ? fetcher.data : undefined;
  return (
    <>
      <a href="/buscar" className="header-button" onClick={open}>
        <SearchIcon />
        <span>Buscar</span>
      </a>
      <dialog ref={dialog} className="search-dialog" aria-labelledby="search-dialog-title" onClose={() => setQuery("")}>
        <div className="dialog-head">
          <h2 id="search-dialog-title">Buscar ofertas</h2>
          <button type="button" className="icon-button" onClick={() => dialog.current?.close()} aria-label="Cerrar">
            <CloseIcon />
          </button>
        </div>
        <form
          role="search"
          className="search-row"
          action="/buscar"
          method="get"
          onSubmit={(e) => query.trim().length < SEARCH_MIN_CHARS && e.preventDefault()}
        >
          <label htmlFor="search-dialog-input" className="visually-hidden">
            ¿Qué buscas?
          </label>
          <input
            ref={input}
            id="search-dialog-input"
            name="q"
            type="search"
            autoComplete="off"
            placeholder="Spa, paella, escape room…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {/* Enter submits a one-field form anyway; the button makes that visible and findable (WCAG H32). */}
          <button type="submit" className="icon-button" aria-label="Buscar">
            <SearchIcon />
          </button>
        </form>
        <div className="search-body" aria-live="polite" aria-busy={fetcher.state === "loading"}>
          {data ? <SearchResults data={data} /> : null}
          {query.trim().length > 0 && query.trim().length < SEARCH_MIN_CHARS ? (
            <p className="muted small">Escribe al menos {SEARCH_MIN_CHARS} letras para buscar.</p>
          ) : null}
        </div>
      </dialog>
    </>
  );
}
