/**
 * The storefront's own Vite plugins.
 *
 * bundleStats: a build-time record of what each browser chunk is made of, for `npm run bench`: per chunk, its
 * static and dynamic imports and every module's rendered (minified) length and standalone gzip
 * size. The bench joins it with the chunks a page's HTML loads, so it can say which bytes of a
 * first visit come from which source file (none from the consent-gated integrations).
 * Written outside build/client, so it is never served.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

export const BUNDLE_STATS_FILE = "build/bundle-stats.json";

export type BundleStats = {
  chunks: Record<string, { imports: string[]; dynamicImports: string[]; modules: { id: string; renderedLength: number; gzip: number }[] }>;
};

export function bundleStats(root: string): Plugin {
  let ssr = false;
  return {
    name: "ofertas-bundle-stats",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const stats: BundleStats = { chunks: {} };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        stats.chunks[chunk.fileName] = {
          imports: chunk.imports,
          dynamicImports: chunk.dynamicImports,
          modules: Object.entries(chunk.modules)
            .filter(([, m]) => m.renderedLength > 0)
            .map(([id, m]) => ({
              // Relative, without Vite's query or virtual-module prefix: stable across machines.
              id: path.isAbsolute(id.replace(/^\0/, ""))
                ? path.relative(root, id.replace(/^\0/, "")).replace(/\?.*$/, "")
                : id.replace(/^\0/, ""),
              renderedLength: m.renderedLength,
              gzip: m.code ? gzipSync(m.code, { level: 9 }).length : 0,
            })),
        };
      }
      const file = path.join(root, BUNDLE_STATS_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(stats));
    },
  };
}

/**
 * A browser entry as a chunk of the browser build that no page imports. Its hashed URL reaches the
 * server build as `virtual:ofertas/<name>-entry` (the client build runs first and leaves the name
 * in build/<name>-entry.json), so app/entry.server.tsx can write its script tag only when it is
 * wanted: the consented tools' entry after consent (app/third-party/entry.client.ts), error
 * reporting when SENTRY_DSN is set (app/error-reporting/entry.client.ts). In development it is the source.
 */
export function separateEntry(root: string, name: string, source: string): Plugin {
  const VIRTUAL = `virtual:ofertas/${name}-entry`;
  const ENTRY_FILE = `build/${name}-entry.json`;
  let ssr = false;
  let serve = false;
  let base = "/";
  let ref = "";
  return {
    name: `ofertas-${name}-entry`,
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      serve = config.command === "serve";
      base = config.base;
    },
    buildStart() {
      if (!serve && !ssr) ref = this.emitFile({ type: "chunk", id: path.join(root, source), name });
    },
    generateBundle() {
      if (!ref) return;
      const file = path.join(root, ENTRY_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ src: base + this.getFileName(ref) }));
    },
    resolveId(id) {
      return id === VIRTUAL ? "\0" + VIRTUAL : undefined;
    },
    load(id) {
      if (id !== "\0" + VIRTUAL) return undefined;
      const src = serve ? `/${source}` : (JSON.parse(readFileSync(path.join(root, ENTRY_FILE), "utf8")) as { src: string }).src;
      return `export default ${JSON.stringify(src)};`;
    },
  };
}

/**
 * The offline worker (app/offline/service-worker.ts) as /sw.js, at the root of the client build: a
 * worker controls the pages under its own folder, and it must control them all. No page imports
 * it, so it is bundled apart by esbuild into one file, with the build's id (OFFLINE_BUILD), so
 * that every build installs a new worker and keeps a fresh offline page. Nothing in development:
 * the app registers the worker in production only (app/entry.client.tsx).
 */
export function serviceWorker(root: string, source: string): Plugin {
  let ssr = false;
  return {
    name: "ofertas-service-worker",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    async generateBundle(_options, bundle) {
      if (ssr) return;
      const id = createHash("sha256").update(Object.keys(bundle).sort().join("\n")).digest("base64url").slice(0, 12);
      const { build } = await import("esbuild");
      const result = await build({
        entryPoints: [path.join(root, source)],
        bundle: true,
        write: false,
        format: "iife",
        minify: true,
        target: "es2020",
        define: { OFFLINE_BUILD: JSON.stringify(id) },
        logLevel: "warning",
      });
      this.emitFile({ type: "asset", fileName: "sw.js", source: result.outputFiles[0].text });
    },
  };
}
