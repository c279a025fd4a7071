import { readFileSync } from "node:fs";
import path from "node:path";

/** `npm start`'s words: the environment it sets, then node, its flags and the server. */
function startWords(root: string): { env: string[]; flags: string[] } {
  const start: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/);
  const node = words.indexOf("node");
  const script = words.indexOf("build/node/server.js");
  if (node < 0 || script < node || !words.slice(0, node).every((w) => /^[A-Z_]+=\S*$/.test(w))) {
    throw new Error(`npm start no longer runs [VAR=value …] node … build/node/server.js: ${start}`);
  }
  return { env: words.slice(0, node), flags: words.slice(node + 1, script) };
}

/**
 * Node's own flags from `npm start` (the V8 heap sizes among them), for whatever else starts the
 * compiled server (the bench, the browser tests): they run the process a deployment runs.
 */
export function startFlags(root = process.cwd()): string[] {
  return startWords(root).flags;
}

/** The environment `npm start` sets (NODE_ENV, glibc's MALLOC_ARENA_MAX), for the same callers. */
export function startEnv(root = process.cwd()): Record<string, string> {
  return Object.fromEntries(startWords(root).env.map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
}
