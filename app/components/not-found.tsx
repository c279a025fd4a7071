import { Link } from "@remix-run/react";

export function NotFoundPage() {
  return (
    <div className="error-page">
      <h1>404</h1>
      <p>Lo sentimos, no pudimos encontrar la página que buscas.</p>
      <p>
        <Link to="/" className="btn">
          Ir a la página principal
        </Link>
      </p>
    </div>
  );
}
