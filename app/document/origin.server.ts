import { config } from "#app/env.server";

/**
 * The shop's public origin for links in pages (canonical, JSON-LD, sitemap, embed code).
 * PUBLIC_URL when set; otherwise request.url, which the Express adapter built from forwarded
 * headers only when they came through a trusted proxy. Never read X-Forwarded-* here again.
 */
export function requestOrigin(request: Request): string {
  return config().PUBLIC_URL?.replace(/\/$/, "") ?? new URL(request.url).origin;
}
