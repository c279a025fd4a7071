/**
 * One supported Node everywhere: the version package.json pins for npm scripts and CI (the `node`
 * devDependency, which npm puts first on PATH), the image's base and `engines` agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const pinned = pkg.devDependencies.node;
const major = (version: string) => Number(version.replace(/^v/, "").split(".")[0]);

describe("the Node the shop runs on", () => {
  it("is pinned exactly, to an LTS line (an even major of 24 or later)", () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major(pinned)).toBeGreaterThanOrEqual(24);
    expect(major(pinned) % 2).toBe(0);
  });

  it("is the one these tests run on (npx and npm scripts take node_modules/.bin/node)", () => {
    expect(major(process.version)).toBe(major(pinned));
  });

  it("is the image's base, in both stages", () => {
    const bases = [...readFileSync("Dockerfile", "utf8").matchAll(/^FROM node:(\d+)-/gm)].map((m) => Number(m[1]));
    expect(bases).toEqual([major(pinned), major(pinned)]);
  });

  it("is admitted by engines, as Node 22 still is; Node 20 (out of support) is not", () => {
    const minimum = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(minimum, pkg.engines.node).not.toBeNull();
    expect(Number(minimum![1])).toBe(22);
    expect(major(pinned)).toBeGreaterThan(Number(minimum![1]));
  });
});
