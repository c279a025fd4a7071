import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "#app/root";
import { ENHANCED_FIELD } from "#app/lib/enhanced";
import { HeartIcon } from "./icons";

const FORM_ID = "favorite-form";

/**
 * The one form every heart on a page submits (through the button's `form` attribute), once in the
 * layout. A heart is then a button that carries its offer, not a form of its own with three hidden
 * fields: four elements fewer per card, which on a listing page of 28 cards was a sixth of its
 * markup and of the server's render. Posts to /favorite, answered with a 303 back here.
 */
export function FavoriteForm() {
  const location = useLocation();
  return (
    <form id={FORM_ID} method="post" action="/favorite" hidden>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
    </form>
  );
}

/**
 * The heart: without JavaScript it submits FavoriteForm with its offer; with JavaScript a fetcher
 * posts the same fields, the heart flips at once and the server confirms.
 */
export function FavoriteButton({ offerUuid, title, className = "" }: { offerUuid: string; title: string; className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetcher = useFetcher();
  const saved = root?.favoriteIds?.includes(offerUuid) ?? false;
  const pending = fetcher.formData?.get("offerUuid") === offerUuid;
  const isFavorite = pending ? !saved : saved;
  return (
    <button
      type="submit"
      form={FORM_ID}
      name="offerUuid"
      value={offerUuid}
      className={`favorite-button ${className}`.trim() + (isFavorite ? " is-favorite" : "")}
      aria-pressed={isFavorite}
      aria-label={isFavorite ? `Quitar «${title}» de favoritos` : `Guardar «${title}» en favoritos`}
      onClick={(event) => {
        event.preventDefault();
        fetcher.submit({ intent: "toggle", offerUuid, [ENHANCED_FIELD]: "1" }, { method: "post", action: "/favorite" });
      }}
    >
      <HeartIcon />
    </button>
  );
}
