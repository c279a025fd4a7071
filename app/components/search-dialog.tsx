import { Form, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from "#rules/constants";
import { CloseIcon, SearchIcon } from "./icons";
import type { SearchData } from "#app/routes/buscar/route";

/** One result: a POST so that opening it records the recent search, then 303 to the offer. */
export function SearchResultItem({ uuid, title, meta }: { uuid: string; title: string; meta?: string }) {
  return (
    <li>
      <Form method="post" action="/buscar" className="search-result">
        <input type="hidden" name="uuid" value={uuid} />
        <input type="hidden" name="title" value={title} />
        <button type="submit" className="link-button">
          <span>{title}</span>
          {meta ? <small>{meta}</small> : null}
        </button>
      </Form>
    </li>
  );
}

export const SEARCH_FAILED_TEXT = "No hemos podido buscar ahora. Comprueba tu conexión e inténtalo de nuevo.";

/** `level`: 3 inside the dialog (under its h2), 2 on the /buscar page (under its h1). */
export function SearchResults({ data, level = 3 }: { data: SearchData; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  if (data.query.trim().length >= SEARCH_MIN_CHARS) {
    // An empty list says why: nothing matched, or the search could not be made at all.
    if (data.failed) return <p className="muted">{SEARCH_FAILED_TEXT}</p>;
    return data.results.length ? (
      <ul className="search-list" aria-label="Resultados">
        {data.results.map((o) => (
          <SearchResultItem key={o.uuid} uuid={o.uuid} title={o.title} meta={o.region} />
        ))}
      </ul>
    ) : (
      <p className="muted">No hemos encontrado ofertas para «{data.query.trim()}».</p>
    );
  }
  return (
    <>
      {data.recent.length ? (
        <section>
          <Heading className="search-heading">Búsquedas recientes</Heading>
          <ul className="search-list">
            {data.recent.map((r) => (
              <SearchResultItem key={r.uuid} uuid={r.uuid} title={r.title} />
            ))}
          </ul>
        </section>
      ) : null}
      {data.popular.length ? (
        <section>
          <Heading className="search-heading">Populares ahora</Heading>
          <ul className="search-list">
            {data.popular.map((o) => (
              <SearchResultItem key={o.uuid} uuid={o.uuid} title={o.title} meta={o.region} />
            ))}
          </ul>
        </section>
      ) : null}
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
