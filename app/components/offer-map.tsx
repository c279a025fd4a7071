import { useEffect, useRef, useState } from "react";
import type { OfferMapData } from "#lib/maps";

type MapModule = typeof import("#app/lib/map.client");

/**
 * Where the offer is. Everyone gets the address, «Cómo llegar» and, when configured, a static map
 * served by us. With JavaScript, marketing consent and a tiles URL, the interactive map replaces
 * the picture once the section scrolls into view: Leaflet and the tiles load only then.
 */
export function OfferMap({ map, address, title }: { map: OfferMapData; address: string; title: string }) {
  const sectionRef = useRef<HTMLElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const [leaflet, setLeaflet] = useState<MapModule | null>(null);
  const { tiles, lat, lon } = map;
  useEffect(() => {
    const el = sectionRef.current;
    if (!tiles || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        import("#app/lib/map.client").then(setLeaflet, () => {}); // blocked: the picture and the link stay
      },
      { rootMargin: "200px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [tiles]);
  useEffect(() => {
    // Leaflet owns this element's children; React renders it empty and never touches them.
    if (!leaflet || !tiles || !canvasRef.current) return;
    return leaflet.showMap(canvasRef.current, { lat, lon, title, tiles });
  }, [leaflet, tiles, lat, lon, title]);
  const interactive = Boolean(leaflet && tiles);
  return (
    <section ref={sectionRef} className="offer-section offer-map" aria-labelledby="map-title">
      <h2 id="map-title">Dónde está</h2>
      <p>{address}</p>
      {interactive ? (
        <div ref={canvasRef} className="offer-map-canvas" role="region" aria-label={`Mapa interactivo: ${title}`} data-testid="interactive-map" />
      ) : map.staticSrc ? (
        <img src={map.staticSrc} alt={`Mapa de la ubicación: ${address}`} width={640} height={320} loading="lazy" />
      ) : null}
      <p>
        <a href={map.directionsUrl} target="_blank" rel="noopener noreferrer" className="btn btn-secondary">
          Cómo llegar
        </a>
      </p>
    </section>
  );
}
