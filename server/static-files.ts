import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

const YEAR = "public, max-age=31536000, immutable";
const HOUR = "public, max-age=3600";
/** The offline worker: the browser asks for it again at every visit and installs a new build's at once. */
const WORKER = "no-cache";

/**
 * Serves the build's client files. A browser that accepts brotli or gzip gets the .br/.gz that
 * scripts/precompress.ts wrote at build time, with the original's Content-Type and a
 * Content-Encoding (compression() leaves an already-encoded response alone). The list of
 * compressed files is read once at start, so when a file has gone since (the build was replaced
 * under a running server), the request goes on to the pages exactly as it came: without the
 * rewritten URL and the encoding headers, which made Remix's 404 fail on a Content-Type it could
 * not append to, and would have labelled an HTML page as brotli.
 */
export function buildFiles(root: string): RequestHandler {
  const available = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(br|gz)$/.test(name)) available.add("/" + path.relative(root, full).split(path.sep).join("/"));
    }
  };
  walk(root);
  const assets = path.resolve(root, "assets") + path.sep;
  const worker = path.resolve(root, "sw.js");
  const serve = express.static(root, {
    index: false,
    // Hashed file names under /assets/: safe to cache for a year and never revalidate.
    setHeaders: (res, file) =>
      res.setHeader("Cache-Control", path.resolve(file).startsWith(assets) ? YEAR : path.resolve(file) === worker ? WORKER : HOUR),
  });
  return (req, res, next) => {
    // Files have an extension; pages never do. Without this test every page paid a failed stat().
    if ((req.method !== "GET" && req.method !== "HEAD") || !/\.[^/]*$/.test(req.path)) return next();
    const accepts = String(req.headers["accept-encoding"] ?? "");
    const file = req.path;
    const encoding =
      /\bbr\b/.test(accepts) && available.has(`${file}.br`)
        ? "br"
        : /\bgzip\b/.test(accepts) && available.has(`${file}.gz`)
          ? "gzip"
          : null;
    res.vary("Accept-Encoding");
    if (!encoding) return serve(req, res, next);
    const url = req.url;
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", encoding);
    req.url = `${file}.${encoding === "br" ? "br" : "gz"}${url.slice(file.length)}`;
    serve(req, res, (error?: unknown) => {
      req.url = url;
      res.removeHeader("Content-Type");
      res.removeHeader("Content-Encoding");
      next(error);
    });
  };
}
