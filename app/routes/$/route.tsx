import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFoundPage } from "#app/components/not-found";
import { popularCards } from "#app/catalogue/popular.server";
import type { RouteHandle } from "#app/root";

/** «Populares ahora» and the results are cards with hearts: the layout renders the form they submit. */
export const handle: RouteHandle = { favorites: true };

export const meta: MetaFunction = () => [{ title: "Página no encontrada | ofertas" }, { name: "robots", content: "noindex" }];

/**
 * Any unknown path: the spec's 404 page, answered with status 404, with somewhere to go from it
 * («Populares ahora», the categories). It ships the app like every page, so the header's search,
 * cart and region work as they do elsewhere.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return data({ popular: await popularCards(request) }, { status: 404 });
}

/** POST/PUT/PATCH/DELETE to an unknown path is the same 404, not a 405 "no action here". */
export async function action() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  const loaded = useLoaderData<typeof loader>() as { popular?: Awaited<ReturnType<typeof popularCards>> } | undefined;
  return <NotFoundPage popular={loaded?.popular ?? []} />;
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
