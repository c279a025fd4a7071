import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { staticPages, type StaticPage } from "./static-pages";
import { NotFoundPage } from "#app/components/not-found";
import { StaticPageView } from "./static-page";
import { config } from "#app/env.server";
import { formatDate } from "#rules/dates";
import { originFrom, seo } from "#app/document/seo";
import type { RouteHandle } from "#app/root";
import { popularCards } from "#app/catalogue/popular.server";

/**
 * Reading pages: every control on them works as plain HTML, so they ship no JavaScript. The 404
 * answered for any other segment runs the app like the other pages (its header's search and cart).
 */
export const handle: RouteHandle = {
  noScripts: (data) => Boolean((data as LoaderData | undefined)?.page),
  publicCache: true,
  // The 404 in a page's place shows «Populares ahora», hearts included.
  favorites: (data) => !(data as LoaderData | undefined)?.page,
};

type LoaderData = { page: StaticPage | null };

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  loaded?.page
    ? seo({ title: loaded.page.title, description: loaded.page.description, origin: originFrom(matches), path: `/${loaded.page.slug}` })
    : [{ title: "Página no encontrada | ofertas" }, { name: "robots", content: "noindex" }];

function pageOf(slug: string | undefined): StaticPage | null {
  const { SUPPORT_EMAIL, BUSINESS_EMAIL } = config();
  const pages = staticPages({ supportEmail: SUPPORT_EMAIL, businessEmail: BUSINESS_EMAIL });
  return slug && Object.hasOwn(pages, slug) ? pages[slug as StaticPage["slug"]] : null;
}

/** The five information pages (/contacts, /agreement, …); any other single segment is a 404. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const page = pageOf(params.page);
  if (!page) return data({ page: null, updated: "", popular: await popularCards(request) }, { status: 404 });
  return data({ page, updated: formatDate(page.updated), popular: [] });
}

/**
 * A post to any other single segment is the same 404 as a GET there (without an action Remix
 * would answer 405, saying the unknown path exists); an information page takes no posts.
 */
export async function action({ params }: ActionFunctionArgs) {
  if (!pageOf(params.page)) throw new Response("Not Found", { status: 404 });
  throw new Response("Method Not Allowed", { status: 405 });
}

export default function InformationPage() {
  const { page, updated, popular } = useLoaderData<typeof loader>();
  return page ? <StaticPageView page={page} updated={updated} /> : <NotFoundPage popular={popular} />;
}

export const ErrorBoundary = () => <NotFoundPage />;
