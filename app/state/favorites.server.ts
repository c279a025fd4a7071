import type { Session } from "@remix-run/node";
import { ANONYMOUS_FAVORITES_MAX } from "#rules/accounts";
import { ApiError, customerApi } from "#app/api-client/client.server";
import { viewer } from "./auth.server";
import { favorites, setFavorites } from "./session.server";

/**
 * The favourite offer ids of this visitor: the account's (server) when logged in, otherwise the
 * ones kept in the session cookie. A failing API shows no hearts rather than failing the page.
 */
export async function favoriteIds(request: Request, session: Session): Promise<string[]> {
  if (!viewer(session)) return favorites(session);
  return customerApi
    .favorites(request)
    .then((list) => list.map((o) => o.uuid))
    .catch(() => []);
}

export type ToggleOutcome = { isFavorite: boolean; error?: string };

/** Adds or removes one favourite, on the account or in the session (which has a limit). */
export async function toggleFavorite(request: Request, session: Session, offerUuid: string): Promise<ToggleOutcome> {
  if (viewer(session)) {
    try {
      return { isFavorite: (await customerApi.toggleFavorite(offerUuid, request)).is_favorite };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return { isFavorite: false, error: error.message };
      throw error;
    }
  }
  const list = favorites(session);
  if (list.includes(offerUuid)) {
    setFavorites(
      session,
      list.filter((id) => id !== offerUuid),
    );
    return { isFavorite: false };
  }
  if (list.length >= ANONYMOUS_FAVORITES_MAX) {
    return {
      isFavorite: false,
      error: `Sin cuenta puedes guardar hasta ${ANONYMOUS_FAVORITES_MAX} favoritos. Entra en tu cuenta para guardar más, o quita alguno.`,
    };
  }
  setFavorites(session, [offerUuid, ...list]);
  return { isFavorite: true };
}

/**
 * At login the favourites saved without an account join it (sync-list only adds), and the
 * session copy goes: from now on the account holds them.
 */
export async function syncLocalFavorites(request: Request, session: Session, token?: string) {
  const local = favorites(session);
  if (local.length === 0) return;
  await customerApi.syncFavorites(local, request, token);
  setFavorites(session, []);
}
