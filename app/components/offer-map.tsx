import type { OfferMapData } from "#app/components/offer-map-data";

/**
 * Where the offer is: the address, «Cómo llegar» and, when configured, a static map served by us.
 * With JavaScript, marketing consent and a tiles URL, the consented tools' script
 * (app/third-party/entry.client.ts) puts the interactive map in this section once it scrolls into
 * view; this component carries no code for it, so a visitor who said no downloads none.
 */
export function OfferMap({ map, address }: { map: OfferMapData; address: string }) {
  return (
    <section className="offer-section offer-map" aria-labelledby="map-title">
      <h2 id="map-title">Dónde está</h2>
      <p>{address}</p>
      {map.staticSrc ? <img src={map.staticSrc} alt={`Mapa de la ubicación: ${address}`} width={640} height={320} loading="lazy" /> : null}
      <p>
        <a href={map.directionsUrl} target="_blank" rel="noopener noreferrer" className="btn btn-secondary">
          Cómo llegar
        </a>
      </p>
    </section>
  );
}
