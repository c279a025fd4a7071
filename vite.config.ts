import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { bundleStats, separateEntry, serviceWorker } from "./scripts/vite-plugins";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const isVitest = Boolean(process.env.VITEST);

/**
 * The browser's chunks: our own modules that the layout (app/root.tsx) imports, directly or not,
 * go into one "layout" chunk, since every page loads all of them anyway. Left to itself Rollup
 * made a file of each (icons, regions, prices, the consent banner…): 22 requests for the home
 * page, and a phone on a slow network pays a round trip for each of them before the first paint.
 * Only static imports are followed: what a page loads later (after consent, say) stays apart.
 * The offer card's family gets a chunk of its own for the listing pages.
 */
function layoutChunk(): Rollup.GetManualChunk {
  let layout: Set<string> | undefined;
  const isOwn = (id: string) => !id.includes("/node_modules/") && !/\/app\/(root\.tsx|routes\/)/.test(id);
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!layout) {
      layout = new Set();
      const root = [...getModuleIds()].find((m) => m.endsWith("/app/root.tsx"));
      const queue = root ? [...(getModuleInfo(root)?.importedIds ?? [])] : [];
      while (queue.length) {
        const next = queue.pop()!;
        if (layout.has(next) || !isOwn(next)) continue;
        layout.add(next);
        queue.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    // seo.ts builds nearly every route's meta: with the layout rather than a file of its own.
    if (layout.has(id) || /\/app\/document\/seo\.ts$/.test(id)) return "layout";
    // The offer card and its parts, shared by every listing page: one file rather than six.
    if (/\/app\/(components\/(offer-[\w-]+|price|stars))\.tsx?$/.test(id)) return "cards";
    // conform, zod and our form parts, shared by every page with a form (login, checkout, account…).
    if (/\/node_modules\/(@conform-to\/|zod\/)|\/(app\/components\/(form-field|honeypot)|rules\/(zod-es|email))\.tsx?$/.test(id))
      return "forms";
    return undefined;
  };
}

/**
 * A route module is app/routes/<route>/route.tsx: its browser chunk is named after its folder
 * (login-<hash>.js, as before the routes were folders), not route-<hash>.js for every page.
 */
function routeEntryName(chunk: Rollup.PreRenderedChunk): string {
  const folder = /\/app\/routes\/([^/]+)\/route\.tsx?(\?|$)/.exec(chunk.facadeModuleId ?? "")?.[1];
  return folder ? `assets/${folder.replace(/[^\w.-]/g, "_")}-[hash].js` : "assets/[name]-[hash].js";
}

/** What the API's and the operator's tests share: databases from the snapshots global-setup makes, a real server's timeouts. */
const withTestDatabases = {
  globalSetup: ["tests/api/global-setup.ts"],
  environment: "node",
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    // Vitest renders components itself; the Remix plugin would try to build routes.
    !isVitest &&
      remix({
        // A family's shared folder (login+shared/) holds modules, never a route.
        ignoredRouteFiles: ["**/*.server.ts", "**/__*.*", "**/*.test.*", "**/*+shared", "**/*+shared/**"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    tsconfigPaths(),
    // What each browser chunk is made of, for the bench's per-page attribution.
    !isVitest && bundleStats(import.meta.dirname),
    // Analytics, replay, tag manager and map: loaded only by the script tag the server adds after consent.
    !isVitest && separateEntry(import.meta.dirname, "third-party", "app/third-party/entry.client.ts"),
    !isVitest && separateEntry(import.meta.dirname, "error-reporting", "app/error-reporting/entry.client.ts"),
    // The offline worker, /sw.js: kept coupons and the offline page.
    !isVitest && serviceWorker(import.meta.dirname, "app/offline/service-worker.ts"),
  ],
  build: {
    // Small assets inline only when tiny; everything else is hashed under /assets and cached forever.
    assetsInlineLimit: 1024,
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: layoutChunk(), entryFileNames: routeEntryName } },
  },
  test: {
    // One test file per core. vitest's default leaves one core free, which on a two-core machine
    // runs every file in turn, though most of a file's time is spent waiting (SMTP, timers, the
    // embedded database's thread): two at a time finish the suite far sooner.
    maxWorkers: "100%",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          // Node by default; a file that renders asks for jsdom in its first line (@vitest-environment jsdom).
          environment: "node",
          setupFiles: ["tests/setup-unit.ts"],
        },
      },
      {
        extends: true,
        test: {
          ...withTestDatabases,
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          // A file per worker thread rather than per child process: cheaper, and the API files
          // share nothing in memory (the operator's start processes of their own anyway).
          pool: "threads",
        },
      },
      {
        extends: true,
        test: {
          // The operator's commands and processes (data directory, backup, staff:create, a
          // deployment's start, its log): `npm run test:operator`, which CI runs (docs/testing.md).
          ...withTestDatabases,
          name: "operator",
          include: ["tests/operator/**/*.test.ts"],
        },
      },
    ],
  },
}));
