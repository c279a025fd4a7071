import { Link, useLocation } from "@remix-run/react";

/** Plain links, so paging works without JS and can be crawled; the URL keeps its other parameters. */
export function Pagination({
  page,
  count,
  pageSize,
  label = "Páginas",
}: {
  page: number;
  count: number;
  pageSize: number;
  label?: string;
}) {
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
    <nav className="pagination" aria-label={label}>
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
