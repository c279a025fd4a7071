import { Link } from "@remix-run/react";
import { CATEGORY_MENU } from "#rules/categories";
import type { OfferCardData } from "#app/components/offer-card-data";
import { OfferShelf } from "./offer-shelf";
import type { OfferLinkSource } from "./offer-link";

/**
 * Where to go from a page that found nothing (no search results, a removed offer, a 404):
 * «Populares ahora» and the categories, so that no page is a dead end.
 */
export function Suggestions({ popular, from }: { popular: OfferCardData[]; from?: OfferLinkSource }) {
  return (
    <div className="suggestions" data-testid="suggestions">
      <OfferShelf id="sugerencias-populares" title="Populares ahora" offers={popular} from={from} />
      <section aria-labelledby="sugerencias-categorias">
        <h2 id="sugerencias-categorias" className="section-title">
          Explora por categoría
        </h2>
        <ul className="chips chips-wrap">
          {CATEGORY_MENU.map((c) => (
            <li key={c.id}>
              <Link to={c.href} className="chip">
                {c.label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
