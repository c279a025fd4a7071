import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { staticPages, type StaticPage } from "./static-pages";
import { NotFoundPage } from "#app/components/not-found";
import { StaticPageView } from "./static-page";
import { config } from "#app/env.server";
import { formatDate } from "#rules/dates";
import { originFrom, seo } from "#app/document/seo";
import type { RouteHandle } from "#app/root";

/** Reading pages: every control on them works as plain HTML, so they ship no JavaScript. */
export const handle: RouteHandle = { noScripts: true, publicCache: true };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo({ title: data.page.title, description: data.page.description, origin: originFrom(matches), path: `/${data.page.slug}` })
    : [{ title: "Página no encontrada | ofertas" }, { name: "robots", content: "noindex" }];

function pageOf(slug: string | undefined): StaticPage | null {
  const { SUPPORT_EMAIL, BUSINESS_EMAIL } = config();
  const pages = staticPages({ supportEmail: SUPPORT_EMAIL, businessEmail: BUSINESS_EMAIL });
  return slug && Object.hasOwn(pages, slug) ? pages[slug as StaticPage["slug"]] : null;
}

/** The five information pages (/contacts, /agreement, …); any other single segment is a 404. */
export async function loader({ params }: LoaderFunctionArgs) {
  const page = pageOf(params.page);
  if (!page) throw new Response("Not Found", { status: 404 });
  return { page, updated: formatDate(page.updated) };
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
  const { page, updated } = useLoaderData<typeof loader>();
  return <StaticPageView page={page} updated={updated} />;
}

export const ErrorBoundary = NotFoundPage;
