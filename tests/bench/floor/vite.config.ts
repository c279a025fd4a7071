import { vitePlugin as remix } from "@remix-run/dev";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The bench's reference: the barest Remix v2 app that renders 24 items from a loader, the
// reference of the server-rendering goal. npm run bench builds it here and serves it with remix-serve beside the shop.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [
    remix({
      appDirectory: "app",
      buildDirectory: "build",
      // The same future flags as the shop (vite.config.ts), so both render the same way.
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
