import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEnv, startFlags } from "../../scripts/start-flags";

/** A project directory whose package.json has this start script. */
function project(start: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ofertas-start-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { start } }));
  return dir;
}

describe("npm start's environment and flags, for the bench and the browser tests", () => {
  it("reads the variables before node and node's flags before the server", () => {
    const dir = project("NODE_ENV=production MALLOC_ARENA_MAX=1 node --max-semi-space-size=8 --v8-pool-size=1 build/node/server.js");
    expect(startEnv(dir)).toEqual({ NODE_ENV: "production", MALLOC_ARENA_MAX: "1" });
    expect(startFlags(dir)).toEqual(["--max-semi-space-size=8", "--v8-pool-size=1"]);
  });

  it("refuses a start script of another shape rather than start a server unlike the one deployed", () => {
    expect(() => startFlags(project("tsx server.ts"))).toThrow(/npm start/);
    expect(() => startEnv(project("cd build && node node/server.js"))).toThrow(/npm start/);
    expect(() => startEnv(project("nice -n 5 node build/node/server.js"))).toThrow(/npm start/);
  });

  it("this project's start script has that shape", () => {
    expect(startEnv().NODE_ENV).toBe("production");
    expect(startFlags()).toContain("--enable-source-maps");
  });
});
