import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { bundleStats, thirdPartyEntry } from "./scripts/vite-plugins";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const isVitest = Boolean(process.env.VITEST);

export default defineConfig({
  plugins: [
    // Vitest renders components itself; the Remix plugin would try to build routes.
    !isVitest &&
      remix({
        ignoredRouteFiles: ["**/*.server.ts", "**/__*.*", "**/*.test.*"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    tsconfigPaths(),
    // What each browser chunk is made of, for the bench's per-page attribution (issue 12).
    !isVitest && bundleStats(import.meta.dirname),
    // Analytics, replay, tag manager and map: loaded only by the script tag the server adds after consent.
    !isVitest && thirdPartyEntry(import.meta.dirname),
  ],
  build: {
    // Small assets inline only when tiny; everything else is hashed under /assets and cached forever.
    assetsInlineLimit: 1024,
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["tests/setup-unit.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
