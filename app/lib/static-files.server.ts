import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

/**
 * Serves the .br/.gz that scripts/precompress.ts wrote at build time, when the browser accepts
 * them: the request is rewritten to the compressed file, with the original's Content-Type and a
 * Content-Encoding, and the static middleware after this one sends it (compression() leaves an
 * already-encoded response alone). The list of compressed files is read once at start.
 */
export function precompressed(root: string): RequestHandler {
  const available = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(br|gz)$/.test(name)) available.add("/" + path.relative(root, full).split(path.sep).join("/"));
    }
  };
  walk(root);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const accepts = String(req.headers["accept-encoding"] ?? "");
    const file = req.path;
    const encoding = /\bbr\b/.test(accepts) && available.has(`${file}.br`) ? "br" : /\bgzip\b/.test(accepts) && available.has(`${file}.gz`) ? "gzip" : null;
    res.vary("Accept-Encoding");
    if (!encoding) return next();
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", encoding);
    req.url = `${file}.${encoding === "br" ? "br" : "gz"}${req.url.slice(req.path.length)}`;
    next();
  };
}
