import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Node's own flags from `npm start` (the V8 heap sizes among them), for whatever else starts the
 * compiled server (the bench, the browser tests): they run the process a deployment runs.
 */
export function startFlags(root = process.cwd()): string[] {
  const start: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/);
  const node = words.indexOf("node");
  const script = words.indexOf("build/node/server.js");
  if (node < 0 || script < node) throw new Error(`npm start no longer runs node … build/node/server.js: ${start}`);
  return words.slice(node + 1, script);
}
