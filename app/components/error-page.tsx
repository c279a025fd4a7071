import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The shape of every error page and route error component: what happened, and the way home. */
export function ErrorPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="error-page">
      <h1>{title}</h1>
      {children}
      <p>
        <Link to="/" className="btn">
          Ir a la página principal
        </Link>
      </p>
    </div>
  );
}
