/**
 * One owner per embedded database, and a first start that survives kill -9 at any moment.
 * Real child processes, real signals: PGlite only (PostgreSQL has no DATA_DIR database).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import net from "node:net";
import {
  askOwner,
  claimDataDir,
  CONTROL_KEY_FILE,
  controlAddress,
  DataDirInUseError,
  NoOwnerError,
  registerControlCommand,
} from "#api/control";
import { readdir } from "node:fs/promises";
import { eachOutputLine } from "#tests/support/server-process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "tests/support/start-database.ts");
const dirs: string[] = [];
const children = new Set<ChildProcess>();

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "ofertas-datadir-"));
  dirs.push(dir);
  return dir;
}

// A failed test must not leave a child holding a directory for the next one.
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Run = { child: ChildProcess; lines: string[]; waitFor: (re: RegExp, ms?: number) => Promise<string>; exit: Promise<number | null> };

function start(dataDir: string, port = 0, env: Record<string, string> = {}, script = SCRIPT, args: string[] = []): Run {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), TEST_DATABASE_URL: "", DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.re.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  eachOutputLine(child, onLine);
  const exit = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const waitFor = (re: RegExp, ms = 240_000) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${re} in ${ms} ms; output:\n${lines.join("\n")}`)), ms);
      waiters.push({ re, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      void exit.then((code) => reject(new Error(`exited ${code} before ${re}; output:\n${lines.join("\n")}`)));
    });
  };
  return { child, lines, waitFor, exit };
}

/** One request on the control socket as any local user can send it, without reading the key. */
function unsigned(dataDir: string, request: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlAddress(dataDir), () => socket.write(JSON.stringify(request) + "\n"));
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("end", () => resolve(JSON.parse(data)));
    socket.on("error", reject);
  });
}

async function kill9(run: Run) {
  run.child.kill("SIGKILL");
  await run.exit;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("one owner per DATA_DIR", () => {
  // initdb is the slow part (seconds); the first test builds one data directory the hard way and
  // the second reuses it.
  const dataDir = tempDataDir();

  it("kill -9 at any moment of the first start: the next start finishes with the whole catalogue", async () => {
    const migrations = (await readdir(path.join(ROOT, "api/db/migrations"))).filter((f) => f.endsWith(".sql")).sort();
    // Each run is killed later than the one before; a run killed before the database was put in
    // place starts over, so every restart reaches the next moment. Last, a kill while serving.
    const moments: [string, number][] = [
      ["initdb", 200], // inside initdb
      ["prepare", 0], // migrations running on the scratch cluster
      ["prepare", 300], // demo catalogue being written
      ["ready", 0],
    ];
    for (const [phase, delay] of moments) {
      const doomed = start(dataDir);
      await doomed.waitFor(new RegExp(`^phase:${phase}$`));
      if (delay) await sleep(delay);
      await kill9(doomed);
      expect(
        readdirSync(dataDir).filter((f) => f === "pglite.init" || f === "pglite").length,
        `killed at ${phase}+${delay}ms`,
      ).toBeLessThanOrEqual(2);
    }
    const next = start(dataDir);
    const state = JSON.parse((await next.waitFor(/^state:/)).slice(6));
    expect(state).toEqual({ offers: 60, migrations });
    expect(readdirSync(dataDir).filter((f) => f.startsWith("pglite"))).toEqual(["pglite"]);
    await kill9(next);
  }, 1_200_000);

  it("a second process on the same DATA_DIR refuses to start and names the first; kill -9 frees it", async () => {
    const first = start(dataDir, 4999);
    await first.waitFor(/^state:/);
    // Same directory through another path: the lock follows the real path.
    const alias = path.join(dataDir, "..", path.basename(dataDir));
    const second = start(alias);
    expect(await second.exit).toBe(3);
    const message = second.lines.join("\n");
    expect(message).toContain(`pid ${first.child.pid}`);
    expect(message).toContain("http://localhost:4999");
    expect(message).toMatch(/ya lo usa otro proceso/);

    await kill9(first);
    // No stale lock: the kernel freed the socket with the process.
    const third = start(dataDir);
    const state = JSON.parse((await third.waitFor(/^state:/)).slice(6));
    expect(state.offers).toBe(60);
    await kill9(third);
  }, 600_000);

  it("MIGRATE_ON_START=0: a new DATA_DIR is refused while migrations are pending; npm run migrate, then it starts", async () => {
    const dir = tempDataDir();
    const refused = start(dir, 0, { MIGRATE_ON_START: "0" });
    expect(await refused.exit).toBe(4);
    expect(refused.lines.join("\n")).toMatch(/sin aplicar \(0001_catalogue\.sql, .*\) y MIGRATE_ON_START=0: ejecuta «npm run migrate»/);

    const migrating = start(dir, 0, {}, path.join(ROOT, "scripts/migrate.ts"));
    expect(await migrating.exit).toBe(0);
    expect(migrating.lines.join("\n")).toMatch(/Migraciones aplicadas: 0001_catalogue\.sql/);

    const server = start(dir, 0, { MIGRATE_ON_START: "0" });
    const state = JSON.parse((await server.waitFor(/^state:/)).slice(6));
    expect(state.migrations).toContain("0031_migration_checksums.sql");
    // Through the server that owns the directory now: nothing left to do.
    const again = start(dir, 0, {}, path.join(ROOT, "scripts/migrate.ts"));
    expect(await again.exit).toBe(0);
    expect(again.lines.join("\n")).toMatch(/servidor en marcha[\s\S]*Ninguna migración pendiente/);
    await kill9(server);
  }, 600_000);

  it("answers commands on the control channel; askOwner says when nobody owns the directory", async () => {
    const dir = tempDataDir();
    await expect(askOwner(dir, "whois")).rejects.toBeInstanceOf(NoOwnerError);
    const claim = await claimDataDir(dir);
    try {
      registerControlCommand("test-echo", async (args) => ({ echoed: args.text }));
      registerControlCommand("test-fail", () => {
        throw new Error("No se puede ahora.");
      });
      claim.setPort(4321);
      expect(await askOwner(dir, "whois")).toMatchObject({ pid: process.pid, port: 4321 });
      expect(await askOwner(dir, "test-echo", { text: "hola" })).toEqual({ echoed: "hola" });
      // Another user of the machine reaches the socket but cannot read the key: refused.
      expect((statSync(path.join(dir, CONTROL_KEY_FILE)).mode & 0o777).toString(8)).toBe("600");
      for (const request of [
        { command: "test-echo", args: { text: "hola" } },
        { command: "test-echo", args: {}, signature: "00".repeat(32) },
      ])
        expect(await unsigned(dir, request)).toMatchObject({ ok: false, error: expect.stringMatching(/Petición no autorizada/) });
      expect(await unsigned(dir, { command: "whois" })).toMatchObject({ ok: true, result: { pid: process.pid } });
      await expect(askOwner(dir, "test-fail")).rejects.toThrow("No se puede ahora.");
      await expect(askOwner(dir, "nope")).rejects.toThrow(/Comando desconocido/);
      const again = await claimDataDir(dir).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(DataDirInUseError);
      expect((again as DataDirInUseError).owner?.pid).toBe(process.pid);
    } finally {
      await claim.release();
    }
    const reclaimed = await claimDataDir(dir);
    await reclaimed.release();
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL) || process.platform === "win32")("DATA_DIR is its user's alone", () => {
  /** A command as an operator whose shell has the usual umask 022 runs it. */
  function withUmask022(dataDir: string, script: string, args: string[]) {
    // Without vitest's variables, which silence the logger.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      TEST_DATABASE_URL: "",
      DATABASE_URL: "",
      SESSION_SECRET: "",
      PUBLIC_URL: "",
      SMTP_URL: "",
    };
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
    const child = spawn("/bin/sh", ["-c", 'umask 022 && exec "$0" "$@"', process.execPath, "--import", "tsx", script, ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    eachOutputLine(child, (line) => (output += `${line}\n`));
    return new Promise<{ code: number | null; output: string }>((resolve) => child.on("exit", (code) => resolve({ code, output })));
  }

  /** Every file and folder under dir whose mode lets anyone but its owner in. */
  function exposed(dir: string): string[] {
    const found: string[] = [];
    const walk = (at: string) => {
      const stat = statSync(at);
      if (stat.mode & 0o077) found.push(`${path.relative(dir, at) || "."} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of readdirSync(at)) walk(path.join(at, name));
    };
    walk(dir);
    return found;
  }

  it("under umask 022 the directory, the embedded database, the secret and the mail are created 0700/0600", async () => {
    const parent = tempDataDir();
    chmodSync(parent, 0o755);
    const dataDir = path.join(parent, "data");
    const run = await withUmask022(dataDir, "scripts/staff-create.ts", ["--email", "jefa@tienda.example"]);
    expect(run.code, run.output).toBe(0);
    expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(["mail", "pglite", "session-secret"]));
    expect(readdirSync(path.join(dataDir, "mail"))).toHaveLength(1);
    expect(exposed(dataDir)).toEqual([]);
  }, 240_000);

  it("a DATA_DIR others can open is refused, with the chmod that fixes it", async () => {
    const dataDir = path.join(tempDataDir(), "abierto");
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const run = await withUmask022(dataDir, "scripts/migrate.ts", []);
    expect(run.code).toBe(1);
    expect(run.output).toContain(`lo pueden abrir otros usuarios de esta máquina (permisos 755)`);
    expect(run.output).toContain(`chmod -R go-rwx ${dataDir}`);
    expect(run.output).not.toMatch(/\n\s+at /);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);
});
