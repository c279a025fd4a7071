import type { OfferCardData } from "./offer-card-data";
import { ErrorPage } from "./error-page";
import { Suggestions } from "./suggestions";

/** The spec's 404 page, and where to go from it: «Populares ahora» (when known) and the categories. */
export function NotFoundPage({ popular = [] }: { popular?: OfferCardData[] }) {
  return (
    <>
      <ErrorPage title="404">
        <p>Lo sentimos, no pudimos encontrar la página que buscas.</p>
      </ErrorPage>
      <Suggestions popular={popular} />
    </>
  );
}
