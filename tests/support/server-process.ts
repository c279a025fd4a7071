/**
 * The compiled server (build/node/server.js, as `npm start` runs it) in a child process of the
 * test, with its JSON log lines collected: for what only the real process shows (readiness while
 * it starts, request logs, signals, cluster workers).
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { startEnv, startFlags } from "../../scripts/start-flags";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type LogLine = Record<string, unknown> & { msg?: string; reqId?: string };

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: (path: string) => string;
  /** Every log line so far, parsed (lines that are not JSON are kept as {msg}). */
  lines: LogLine[];
  waitFor: (test: (line: LogLine) => boolean, ms?: number) => Promise<LogLine>;
  waitReady: (ms?: number) => Promise<void>;
  exit: Promise<number | null>;
  stop: () => Promise<number | null>;
};

/** A port free right now: the storefront calls its own API on PORT, so 0 will not do. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });
}

/** Calls `onLine` with each whole line the child writes to stdout or stderr. */
export function eachOutputLine(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffer = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf("\n")) !== -1) {
        onLine(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    });
  }
}

/**
 * The compiled server with `env`; `command` runs it another way (the documented `npm run serve`),
 * from the repository's root, with the same environment.
 */
export async function startServerProcess(env: Record<string, string>, { command }: { command?: string[] } = {}): Promise<ServerProcess> {
  const [program, ...args] = command ?? [process.execPath, ...startFlags(ROOT), "build/node/server.js"];
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, ...startEnv(ROOT), PORT: String(await freePort()), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: LogLine[] = [];
  const waiters: { test: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  const onLine = (text: string) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    lines.push(line);
    for (const w of [...waiters])
      if (w.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
  };
  eachOutputLine(child, onLine);
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (test: (line: LogLine) => boolean, ms = 60_000) => {
    const found = lines.find(test);
    if (found) return Promise.resolve(found);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no such log line in ${ms} ms:\n${lines.map((l) => JSON.stringify(l)).join("\n")}`)),
        ms,
      );
      waiters.push({
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exit.then(() => reject(new Error(`the server exited:\n${lines.map((l) => JSON.stringify(l)).join("\n")}`)));
    });
  };
  const opened = await waitFor((l) => typeof l.port === "number");
  const port = opened.port as number;
  const url = (p: string) => `http://127.0.0.1:${port}${p}`;
  return {
    child,
    port,
    url,
    lines,
    waitFor,
    exit,
    waitReady: async (ms = 90_000) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const status = await fetch(url("/readyz")).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("not ready in time");
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exit;
    },
  };
}
