/** Leaflet and its stylesheet: a chunk imported only after consent, when the map scrolls into view. */
import L from "leaflet";
import "leaflet/dist/leaflet.css";

export function showMap(
  el: HTMLElement,
  { lat, lon, title, tiles }: { lat: number; lon: number; title: string; tiles: { url: string; attribution: string } },
): () => void {
  const map = L.map(el, { scrollWheelZoom: false }).setView([lat, lon], 15);
  L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
  // A circle marker needs no icon images (Leaflet's default icon paths break under a bundler).
  L.circleMarker([lat, lon], { radius: 10, color: "#b83a17", weight: 3, fillColor: "#e4572e", fillOpacity: 0.9 })
    .addTo(map)
    .bindTooltip(title);
  return () => map.remove();
}
