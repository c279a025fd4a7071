import type { LoaderFunctionArgs } from "@remix-run/node";
import { Recent } from "#platform/recent";
import { isUuid } from "#rules/uuid";
import { offersApi } from "#app/api-client/client.server";
import { staticMapUrl } from "#app/third-party/maps.server";

const MAX_BYTES = 1024 * 1024;
const cache = new Recent<string, { body: ArrayBuffer; type: string }>(200);

const notFound = () =>
  new Response("Mapa no disponible", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * The offer's static map image, fetched by this server from MAPS_STATIC_URL. The visitor's browser
 * only ever talks to us, so the map shows before any consent and without JavaScript, and the maps
 * provider never learns who looked at it.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = (params.ofertaId ?? "").toLowerCase();
  if (!isUuid(id)) return notFound();
  let entry = cache.get(id);
  if (!entry) {
    const offer = await offersApi.get(id).catch(() => null);
    const url = offer && offer.latitude !== null && offer.longitude !== null ? staticMapUrl(offer.latitude, offer.longitude) : null;
    if (!url) return notFound();
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      const type = res.headers.get("content-type") ?? "";
      if (!res.ok || !/^image\/(png|jpeg|webp|gif)\b/.test(type)) return notFound();
      const body = await res.arrayBuffer();
      if (body.byteLength > MAX_BYTES) return notFound();
      entry = { body, type };
      cache.set(id, entry);
    } catch {
      return notFound();
    }
  }
  return new Response(entry.body, { headers: { "Content-Type": entry.type, "Cache-Control": "public, max-age=86400" } });
}
