import { gzipSync } from "node:zlib";
import { Recent } from "#platform/recent";

/**
 * Dynamic responses are gzipped at level 1 (nginx's default): level 6 cost markedly more CPU per
 * API page for a few per cent fewer bytes (ADR 015). Static files are precompressed at build time at the highest levels.
 */
export const DYNAMIC_GZIP_LEVEL = 1;

/** Below this a gzip header and trailer cost more than they save (the compression middleware's threshold). */
const MIN_GZIP_BYTES = 1024;

/**
 * Whether an Accept-Encoding header takes gzip rather than the body as it is: `gzip` or `*` with a
 * q-value above 0, and not below identity's (a tie goes to gzip). Absent or empty means identity only.
 */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  const q: Record<string, number> = {};
  for (const part of header.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    q[coding.trim()] = weight ? Number(weight[1]) : 1;
  }
  const gzip = q.gzip ?? q["x-gzip"] ?? q["*"] ?? 0;
  // Unnamed, identity counts as `*`, or as the least wanted coding listed (as Express's negotiator does).
  const identity = q.identity ?? q["*"] ?? Math.min(...Object.values(q));
  return gzip > 0 && gzip >= identity;
}

/** Whether a body goes gzipped: it is large enough to gain, and the client takes gzip. */
export function gzipWanted(acceptEncoding: string | null | undefined, body: string | Buffer): boolean {
  return Buffer.byteLength(body) >= MIN_GZIP_BYTES && acceptsGzip(acceptEncoding);
}

/**
 * A whole body, gzipped in one call when the client takes gzip. The compression middleware would
 * run a zlib stream for it (set-up, a threadpool round trip per chunk): for a listing page it was
 * the largest single cost after the database. Synchronous: zlib's asynchronous call, which runs
 * the deflate on another core, cost as much CPU in its stream machinery on this one, and a worse p99.
 * The middleware leaves a response that already has Content-Encoding alone.
 */
export function gzipWhole<T extends string | Buffer>(
  acceptEncoding: string | null | undefined,
  body: T,
): { body: T | Buffer; gzip: boolean } {
  if (!gzipWanted(acceptEncoding, body)) return { body, gzip: false };
  return { body: gzipSync(body, { level: DYNAMIC_GZIP_LEVEL }), gzip: true };
}

/** A body sent before, its gzip, and what its sender worked out from that gzip once (its ETag). */
export type KeptGzip = { readonly bytes: Buffer; readonly gzip: Buffer; etag?: string };

const recentGzips = new Recent<string, KeptGzip>(32);

/**
 * The gzip of `bytes`, kept under `key` (the API's listing pages, by URL) and deflated again only
 * when the bytes are not the ones last sent under it (deflate is deterministic). The database
 * still answers every request. Comparing a listing page with the kept one costs next to nothing;
 * deflating it, a fifth of the API's own work for it.
 * Kept by a short key and compared, rather than looked up by the bytes themselves, no request
 * makes and hashes a whole page's string to find its gzip.
 */
export function keptGzip(key: string, bytes: Buffer): KeptGzip {
  let kept = recentGzips.get(key);
  if (!kept?.bytes.equals(bytes)) recentGzips.set(key, (kept = { bytes, gzip: gzipSync(bytes, { level: DYNAMIC_GZIP_LEVEL }) }));
  return kept;
}

/**
 * Pieces of text as one UTF-8 buffer, each encoded in place: no joined copy of them as a string.
 * A piece already in UTF-8 (a listing's cards as the embedded database sent them) is copied as it is.
 */
export function utf8(parts: readonly (string | Uint8Array)[]): Buffer {
  let size = 0;
  for (const part of parts) size += typeof part === "string" ? Buffer.byteLength(part) : part.byteLength;
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) {
    if (typeof part === "string") at += bytes.write(part, at);
    else {
      bytes.set(part, at);
      at += part.byteLength;
    }
  }
  return bytes;
}
