import type { MetaDescriptor } from "@remix-run/node";

export const SITE_NAME = "ofertas";

/** Title, description and canonical link for a page; origin comes from the root loader. */
export function seo({
  title,
  description,
  origin,
  path,
  noindex = false,
}: {
  title: string;
  description: string;
  origin?: string;
  path?: string;
  noindex?: boolean;
}): MetaDescriptor[] {
  const meta: MetaDescriptor[] = [
    { title: title === SITE_NAME ? title : `${title} | ${SITE_NAME}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:locale", content: "es_ES" },
  ];
  if (origin && path) meta.push({ tagName: "link", rel: "canonical", href: `${origin}${path}` });
  if (noindex) meta.push({ name: "robots", content: "noindex" });
  return meta;
}

/** The root loader's origin, from inside a route's meta function. */
export function originFrom(matches: { id: string; data: unknown }[]): string | undefined {
  const root = matches.find((m) => m.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin;
}
