import { hostname, networkInterfaces } from "node:os";
import type { Request, RequestHandler } from "express";
import type { Config } from "#platform/config.server";

/**
 * The hosts this shop answers for. Absolute URLs (payment return pages, sitemap, robots.txt, the
 * API's `next` links) are built from PUBLIC_URL, or else from the request's host, and that host is
 * one of these: a forged Host header gets a 400 before anything is built from it.
 *
 * ALLOWED_HOSTS (comma list of host names, no ports) replaces the default, which is localhost, this
 * machine's host name and the addresses of its network interfaces, so a phone on the same network
 * can try the shop. With PUBLIC_URL set and no ALLOWED_HOSTS, its host and loopback are the list.
 */
export function allowedHosts(env: { ALLOWED_HOSTS?: string; PUBLIC_URL?: string }): Set<string> {
  const hosts = new Set<string>();
  const add = (h: string) => {
    const name = normaliseHostname(h);
    if (name) hosts.add(name);
  };
  for (const h of ["localhost", "127.0.0.1", "::1"]) add(h);
  if (env.PUBLIC_URL) add(new URL(env.PUBLIC_URL).hostname);
  if (env.ALLOWED_HOSTS) {
    for (const h of env.ALLOWED_HOSTS.split(",")) add(h.trim());
  } else if (!env.PUBLIC_URL) {
    add(hostname());
    for (const list of Object.values(networkInterfaces())) for (const nic of list ?? []) add(nic.address.split("%")[0]);
  }
  return hosts;
}

// A host name or IPv4 address, or an IPv6 address in brackets, then an optional port.
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*\.?))(?::(\d{1,5}))?$/i;

/** The lower-case host name of a Host header value, or null when it is not a valid one. */
export function parseHostHeader(value: string | undefined): string | null {
  if (!value || value.length > 260) return null;
  const m = HOST_HEADER.exec(value);
  if (!m) return null;
  if (m[3] !== undefined && Number(m[3]) > 65535) return null;
  return normaliseHostname(m[1] ?? m[2]);
}

function normaliseHostname(name: string): string | null {
  const bare = name
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  return bare === "" ? null : bare;
}

const MESSAGE_MALFORMED = "Petición rechazada: la cabecera Host no es válida.";
const MESSAGE_UNKNOWN = "Petición rechazada: esta web no responde a ese nombre de dominio.";

function refuse(res: Parameters<RequestHandler>[1], message: string) {
  res.status(400).set({ "Cache-Control": "no-store", Vary: "Host" }).type("text/plain; charset=utf-8").send(message);
}

/**
 * Refuses any request whose Host (or, from a trusted proxy, X-Forwarded-Host) is malformed or not
 * allowed, with a 400 that nothing caches. A client's own X-Forwarded-Host from an untrusted
 * address is dropped, so nothing downstream can read it by mistake.
 */
export function hostGuard(allowed: Set<string>): RequestHandler {
  return (req, res, next) => {
    const trusted = isTrustedProxy(req);
    if (!trusted) delete req.headers["x-forwarded-host"];
    const raw = req.headers.host;
    const host = parseHostHeader(raw);
    if (host === null) return refuse(res, MESSAGE_MALFORMED);
    const forwardedRaw = trusted ? req.get("x-forwarded-host")?.split(",")[0].trim() : undefined;
    const forwarded = forwardedRaw === undefined ? undefined : parseHostHeader(forwardedRaw);
    if (forwarded === null) return refuse(res, MESSAGE_MALFORMED);
    const effective = forwarded ?? host;
    if (!allowed.has(effective)) return refuse(res, MESSAGE_UNKNOWN);
    next();
  };
}

function isTrustedProxy(req: Request): boolean {
  const trust = req.app.get("trust proxy fn") as ((addr: string, i: number) => boolean) | undefined;
  return Boolean(trust?.(req.socket.remoteAddress ?? "", 0));
}

/**
 * The origin the buyer's browser sees: PUBLIC_URL, or the request's host, which hostGuard has
 * already checked against the allow-list (forwarded headers count only from a trusted proxy).
 */
export function publicOrigin(req: Request, config: Pick<Config, "PUBLIC_URL">): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/$/, "");
  const forwardedHost = isTrustedProxy(req) ? req.get("x-forwarded-host")?.split(",")[0].trim() : undefined;
  return `${req.protocol}://${forwardedHost || req.get("host")}`;
}
