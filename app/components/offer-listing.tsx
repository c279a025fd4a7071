import { Link, useLocation } from "@remix-run/react";
import type { OfferCardData } from "#app/lib/offer-card";
import { OfferGrid, type HeadingLevel } from "./offer-card";

export type ListingPage = { count: number; results: OfferCardData[]; page: number; pageSize: number };

/** Plain links, so paging works without JS and can be crawled. */
export function Pagination({ page, count, pageSize }: { page: number; count: number; pageSize: number }) {
  const location = useLocation();
  const last = Math.max(1, Math.ceil(count / pageSize));
  if (last <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    if (p === 1) params.delete("page");
    else params.set("page", String(p));
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
  return (
    <nav className="pagination" aria-label="Páginas">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          ← Anterior
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
      <span>
        Página {page} de {last}
      </span>
      {page < last ? (
        <Link to={href(page + 1)} rel="next">
          Siguiente →
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
    </nav>
  );
}

export function OfferListing({ listing, empty, level = 2 }: { listing: ListingPage; empty: string; level?: HeadingLevel }) {
  return (
    <>
      {listing.results.length ? <OfferGrid offers={listing.results} eagerCount={2} level={level} /> : <p className="empty-state">{empty}</p>}
      <Pagination page={listing.page} count={listing.count} pageSize={listing.pageSize} />
    </>
  );
}
