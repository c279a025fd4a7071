/**
 * ADR 025: four places lean on how a library behaves beyond its documented API. Each is pinned
 * to the version it was checked against; an upgrade fails here first, so whoever upgrades reads
 * the ADR's entry, checks that place again and moves its version below.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const installed = (name: string): string =>
  (JSON.parse(readFileSync(path.join(process.cwd(), "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

const REACHES = [
  {
    place: "api/db/pglite-worker.mjs: TextDecoder.prototype.decode keeps long values as bytes",
    versions: { "@electric-sql/pglite": "0.4.6" },
  },
  {
    place: "app/components/scroll-restoration.tsx: UNSAFE_useScrollRestoration and history.state.key",
    versions: { "react-router-dom": "6.30.4", "@remix-run/router": "1.23.3" },
  },
  {
    place: "app/document/defer-scripts.server.ts: the rewrite of the modulepreload links and module script",
    versions: { "@remix-run/react": "2.17.5", "react-dom": "18.3.1" },
  },
] as const;

describe("the libraries ADR 025's reaches were checked against", () => {
  for (const { place, versions } of REACHES) {
    it(place, () => {
      for (const [name, version] of Object.entries(versions)) expect(`${name}@${installed(name)}`).toBe(`${name}@${version}`);
    });
  }
});
