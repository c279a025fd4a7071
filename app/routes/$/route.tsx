import type { MetaFunction } from "@remix-run/node";
import { NotFoundPage } from "#app/components/not-found";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { noScripts: true };

export const meta: MetaFunction = () => [{ title: "Página no encontrada | ofertas" }, { name: "robots", content: "noindex" }];

/** Any unknown path: the spec's 404 page, answered with status 404. */
export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

/** POST/PUT/PATCH/DELETE to an unknown path is the same 404, not a 405 "no action here". */
export async function action() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}

export const ErrorBoundary = NotFound;
