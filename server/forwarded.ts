import type { RequestHandler } from "express";
import { addressMatcher } from "#platform/config/addresses.server";
import { logger } from "#platform/logger.server";

export const PROXY_WITHOUT_FORWARDED_FOR =
  "Una petición llegó de un proxy en el que TRUST_PROXY confía, sin X-Forwarded-For: detrás de ese proxy todos los compradores " +
  "son una sola dirección y comparten sus límites. Haz que el proxy envíe X-Forwarded-For (nginx: " +
  "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; Caddy y Traefik lo envían solos) " +
  "o ajusta TRUST_PROXY (docs/deploy.md, «Behind a proxy or a CDN»).";

/**
 * A request from a peer TRUST_PROXY trusts, without X-Forwarded-For: behind such a proxy (nginx's
 * default proxy_pass) every buyer is the proxy's address. Said once per process, with the fix.
 */
export function warnOnceWithoutForwardedFor(trustProxy: number | string[]): RequestHandler {
  const trusted = typeof trustProxy === "number" ? () => trustProxy > 0 : addressMatcher(trustProxy);
  let warned = false;
  return (req, _res, next) => {
    if (!warned && req.headers["x-forwarded-for"] === undefined && trusted(req.socket.remoteAddress ?? "")) {
      warned = true;
      logger.warn({ peer: req.socket.remoteAddress, trustProxy }, PROXY_WITHOUT_FORWARDED_FOR);
    }
    next();
  };
}
