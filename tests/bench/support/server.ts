/** The production build and the servers the bench measures: started on free ports, always stopped. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEnv, startFlags } from "../../../scripts/start-flags";
import { freePort, ROOT, sleep } from "./helpers";

/** The same freshness check as `npm start`, so the bench never measures a stale build. */
export async function buildIfNeeded() {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn("node", ["scripts/build-if-needed.mjs"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new Error(`the build exited with ${code}`);
}

export type Server = { origin: string; child: ChildProcess; dataDir: string | null; log: string[] };

export type StartOptions = {
  /** Extra environment (DATABASE_URL, WEB_CONCURRENCY…); DATABASE_URL is otherwise removed. */
  env?: Record<string, string>;
  /** A prepared PGlite data directory (the large catalogue); by default a fresh temporary one. */
  dataDir?: string;
  /** Leave dataDir in place when the server stops (a catalogue seeded before the bench). */
  keepData?: boolean;
};

export async function startServer(options: StartOptions = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "ofertas-bench-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...startEnv(ROOT),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PAYMENT_PROVIDER: "sandbox",
    // The bench's clients are all this machine: exempt from the per-address limits.
    RATE_LIMIT_EXEMPT: "loopback",
  };
  // A fresh embedded database every run, whatever the calling shell points at.
  for (const key of ["DATABASE_URL", "API_URL", "PUBLIC_URL", "WEB_CONCURRENCY"]) delete env[key];
  Object.assign(env, options.env);
  // What `npm start` runs: the compiled server (scripts/build-server.ts), not tsx.
  const server = spawnServer(process.execPath, [...startFlags(ROOT), "build/node/server.js"], ROOT, env, `http://127.0.0.1:${port}`);
  server.dataDir = options.keepData ? null : dataDir;
  await waitReady(server, "/api/v0/public/offers/?page_size=1");
  return server;
}

export function spawnServer(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, origin: string): Server {
  const log: string[] = [];
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true, // its own process group, so tsx and the node it starts die together
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const server: Server = { origin, child, dataDir: null, log };
  running.add(server);
  return server;
}

export async function waitReady(server: Server, probe: string) {
  const { child, log } = server;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before answering:\n${log.slice(-30).join("\n")}`);
    }
    try {
      const res = await fetch(`${server.origin}${probe}`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) {
        await res.arrayBuffer();
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`server did not answer within 180 s:\n${log.slice(-30).join("\n")}`);
}

/** Every server a section started and has not stopped: stopServer() ends them all. */
const running = new Set<Server>();
let stoppingAll: Promise<void> | undefined;

/** Idempotent: a signal and the error path may both ask, and both wait for the same stop. */
export function stopServer(): Promise<void> {
  stoppingAll ??= Promise.all([...running].map(stop)).then(() => undefined);
  return stoppingAll;
}

export async function stop(server: Server) {
  running.delete(server);
  const { child } = server;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    killGroup("SIGTERM");
    const timedOut = await Promise.race([exited.then(() => false), sleep(8000).then(() => true)]);
    if (timedOut) {
      killGroup("SIGKILL");
      await Promise.race([exited, sleep(2000)]);
    }
  }
  // Stragglers of the group (if any) do not outlive the bench.
  killGroup("SIGKILL");
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}

/** Runs a command to its end (a build, a seed), its output shown; a failure throws. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}`);
}
