import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "#app/root";
import { EnhancedInput } from "./enhanced-input";
import { HeartIcon } from "./icons";

/**
 * The heart: a plain form post to /favorite (works without JavaScript, answered with a 303 back
 * here), and with JavaScript a fetcher that flips at once and lets the server confirm.
 */
export function FavoriteButton({ offerUuid, title, className = "" }: { offerUuid: string; title: string; className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetcher = useFetcher();
  const location = useLocation();
  const saved = root?.favoriteIds?.includes(offerUuid) ?? false;
  const pending = fetcher.formData?.get("offerUuid") === offerUuid;
  const isFavorite = pending ? !saved : saved;
  return (
    <fetcher.Form method="post" action="/favorite" className={`favorite-form ${className}`}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="offerUuid" value={offerUuid} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <EnhancedInput />
      <button
        type="submit"
        className={`favorite-button${isFavorite ? " is-favorite" : ""}`}
        aria-pressed={isFavorite}
        aria-label={isFavorite ? `Quitar «${title}» de favoritos` : `Guardar «${title}» en favoritos`}
      >
        <HeartIcon />
      </button>
    </fetcher.Form>
  );
}
