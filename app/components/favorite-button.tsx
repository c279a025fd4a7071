import { createContext, useContext, useMemo, type FormEvent, type ReactNode } from "react";
import { useFetchers, useLocation, useRouteLoaderData, useSubmit } from "@remix-run/react";
import type { rootLoader } from "#app/state/root-data.server";
import { ENHANCED_FIELD } from "#app/forms/enhanced";
import { HeartIcon } from "./icons";

const FORM_ID = "favorite-form";
const FETCHER_PREFIX = "favorite:";

/** Whether an offer's heart shows as saved: the root loader's list, flipped while its toggle is on its way. */
const FavoritesContext = createContext<(offerUuid: string) => boolean>(() => false);

/**
 * Once per page, around everything that may show a heart: the hearts then read one context instead
 * of each asking for the root's data and a fetcher of its own (on a listing page of 28 cards,
 * 56 hooks and a fetcher key each, on every server render).
 */
export function FavoritesProvider({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetchers = useFetchers();
  const ids = root?.favoriteIds;
  const isFavorite = useMemo(() => {
    const saved = new Set(ids ?? []);
    // A toggle on its way flips its heart at once; the server's answer then reloads the root's list.
    for (const fetcher of fetchers) {
      const offerUuid = fetcher.key.startsWith(FETCHER_PREFIX) ? fetcher.formData?.get("offerUuid") : null;
      if (typeof offerUuid === "string") {
        if (saved.has(offerUuid)) saved.delete(offerUuid);
        else saved.add(offerUuid);
      }
    }
    return (offerUuid: string) => saved.has(offerUuid);
  }, [ids, fetchers]);
  return <FavoritesContext.Provider value={isFavorite}>{children}</FavoritesContext.Provider>;
}

/**
 * The one form every heart on a page submits (through the button's `form` attribute), once in the
 * layout. A heart is then a button that carries its offer, not a form of its own with three hidden
 * fields. Without JavaScript it posts to /favorite, answered with a 303 back here; with JavaScript
 * the same fields go through a fetcher per offer, so two hearts clicked in a row both count.
 */
export function FavoriteForm() {
  const location = useLocation();
  const submit = useSubmit();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const offerUuid = submitter instanceof HTMLButtonElement ? submitter.value : "";
    if (!offerUuid) return;
    event.preventDefault();
    submit(
      { intent: "toggle", offerUuid, [ENHANCED_FIELD]: "1" },
      { method: "post", action: "/favorite", navigate: false, fetcherKey: FETCHER_PREFIX + offerUuid },
    );
  };
  return (
    <form id={FORM_ID} method="post" action="/favorite" hidden onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
    </form>
  );
}

/** The heart: a submit button of FavoriteForm that carries its offer. */
export function FavoriteButton({ offerUuid, title, className = "" }: { offerUuid: string; title: string; className?: string }) {
  const isFavorite = useContext(FavoritesContext)(offerUuid);
  return (
    <button
      type="submit"
      form={FORM_ID}
      name="offerUuid"
      value={offerUuid}
      className={`favorite-button ${className}`.trim() + (isFavorite ? " is-favorite" : "")}
      aria-pressed={isFavorite}
      aria-label={isFavorite ? `Quitar «${title}» de favoritos` : `Guardar «${title}» en favoritos`}
    >
      <HeartIcon />
    </button>
  );
}
