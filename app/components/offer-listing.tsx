import type { OfferCardData } from "#app/components/offer-card-data";
import { OfferGrid, type HeadingLevel } from "./offer-card";
import { Pagination } from "./pagination";

export type ListingPage = { count: number; results: OfferCardData[]; page: number; pageSize: number };

export function OfferListing({ listing, empty, level = 2 }: { listing: ListingPage; empty: string; level?: HeadingLevel }) {
  return (
    <>
      {listing.results.length ? (
        <OfferGrid offers={listing.results} eagerCount={2} level={level} />
      ) : (
        <p className="empty-state">{empty}</p>
      )}
      <Pagination page={listing.page} count={listing.count} pageSize={listing.pageSize} />
    </>
  );
}
