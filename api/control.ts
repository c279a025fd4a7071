/**
 * One owner per DATA_DIR, and a control channel to it.
 *
 * The server that owns a data directory listens on a local socket named after the directory's real
 * path. On Linux that is an abstract Unix socket: it has no file, and the kernel frees it the moment
 * its process dies (kill -9 included), so a crash never leaves a lock behind. A second server gets
 * EADDRINUSE, asks the holder who it is, and refuses to start with that answer. Elsewhere a socket
 * file in DATA_DIR (a named pipe on Windows) does the same; a socket file left by a crash is found
 * dead (nobody answers) and replaced.
 *
 * The same socket answers commands, one JSON line each way, so that a command-line script can ask
 * the running server to do something instead of opening the embedded database a second time:
 *
 *   // in the server (any module, before or after start):
 *   registerControlCommand("queue-digest", async (args) => ({ queued: await queueDigest(args) }));
 *   // in a script:
 *   const answer = await askOwner(dataDir, "queue-digest", { day: "2026-11-21" });
 *
 * Anyone on this machine can connect to an abstract socket, so every command but `whois` must be
 * signed with the key the owner writes into DATA_DIR/control-key when it claims the directory
 * (0600, in a DATA_DIR only its user can open): only the server's own user (or root) can read it.
 * askOwner signs with it; a request without the right signature is refused.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export type ControlHandler = (args: Record<string, unknown>) => unknown | Promise<unknown>;

export type OwnerInfo = { pid: number; port: number | null; dataDir: string; startedAt: string };

const commands = new Map<string, ControlHandler>();

/** Adds a command the owner answers; the handler's result must be JSON-serialisable. */
export function registerControlCommand(name: string, handler: ControlHandler): void {
  if (!/^[a-z][a-z0-9-]{0,63}$/.test(name)) throw new Error(`Nombre de comando no válido: ${name}`);
  commands.set(name, handler);
}

/** Thrown by claimDataDir when another live process owns the directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: OwnerInfo | null,
  ) {
    super(
      owner
        ? `El directorio de datos ${dataDir} ya lo usa otro proceso de ofertas (pid ${owner.pid}` +
            `${owner.port ? `, http://localhost:${owner.port}` : ""}, desde ${owner.startedAt}). ` +
            `Detén ese proceso o arranca con otro DATA_DIR; para varios procesos, usa DATABASE_URL (PostgreSQL).`
        : `El directorio de datos ${dataDir} ya lo usa otro proceso de ofertas, que no responde. ` +
            `Detén ese proceso o arranca con otro DATA_DIR.`,
    );
  }
}

/** Thrown by askOwner when no process owns the directory. */
export class NoOwnerError extends Error {
  constructor(readonly dataDir: string) {
    super(`Ningún servidor de ofertas está usando ${dataDir}.`);
  }
}

/** The socket address of a data directory (the directory is created if missing). */
export function controlAddress(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const real = realpathSync(dataDir);
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 32);
  if (process.platform === "linux") return `\0ofertas-${hash}`;
  if (process.platform === "win32") return `\\\\?\\pipe\\ofertas-${hash}`;
  return path.join(real, ".owner.sock");
}

export type DataDirClaim = {
  /** Fills in what `whois` reports once the HTTP port is known. */
  setPort(port: number): void;
  release(): Promise<void>;
};

/**
 * Makes this process the only owner of dataDir, or throws DataDirInUseError naming the owner.
 * The claim lasts until release() or until the process ends, however it ends.
 */
export async function claimDataDir(dataDir: string): Promise<DataDirClaim> {
  const address = controlAddress(dataDir);
  const info: OwnerInfo = { pid: process.pid, port: null, dataDir: path.resolve(dataDir), startedAt: new Date().toISOString() };
  const key = randomBytes(32).toString("hex");
  const server = net.createServer((socket) => serve(socket, info, key));
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      let owner: OwnerInfo | null = null;
      try {
        owner = (await askOwner(dataDir, "whois", {}, { timeoutMs: 2000 })) as OwnerInfo;
      } catch (askError) {
        // A socket file whose process is gone (not Linux): nobody answers, so it is stale.
        if (askError instanceof NoOwnerError && !address.startsWith("\0") && attempt === 0) {
          rmSync(address, { force: true });
          continue;
        }
      }
      throw new DataDirInUseError(info.dataDir, owner);
    }
  }
  server.unref(); // never what keeps the process alive
  // Only once the directory is ours: a process that lost the claim must not replace the owner's key.
  writeControlKey(dataDir, key);
  return {
    setPort(port) {
      info.port = port;
    },
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const keyFile = (dataDir: string) => path.join(dataDir, CONTROL_KEY_FILE);
export const CONTROL_KEY_FILE = "control-key";

function writeControlKey(dataDir: string, key: string) {
  const scratch = `${keyFile(dataDir)}.${process.pid}.tmp`;
  writeFileSync(scratch, key, { mode: 0o600 });
  renameSync(scratch, keyFile(dataDir));
}

/** A request's signature: the command and its arguments, under the owner's key. */
const signature = (key: string, command: string, args: Record<string, unknown>) =>
  createHmac("sha256", key)
    .update(JSON.stringify([command, args]))
    .digest("hex");

function signedByKey(key: string, command: string, args: Record<string, unknown>, given: unknown): boolean {
  const expected = Buffer.from(signature(key, command, args), "hex");
  const sent = Buffer.from(typeof given === "string" ? given : "", "hex");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(address);
  });
}

const MAX_LINE = 64 * 1024;

function serve(socket: net.Socket, info: OwnerInfo, key: string) {
  let buffer = "";
  socket.setEncoding("utf8");
  socket.setTimeout(10_000, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_LINE) return reply({ ok: false, error: "Petición demasiado larga." });
    const end = buffer.indexOf("\n");
    if (end === -1) return;
    const line = buffer.slice(0, end);
    socket.removeAllListeners("data");
    void answer(line, info, key).then(reply);
  });
  function reply(message: unknown) {
    socket.end(JSON.stringify(message) + "\n");
  }
}

async function answer(line: string, info: OwnerInfo, key: string): Promise<{ ok: boolean; result?: unknown; error?: string }> {
  let request: { command?: unknown; args?: unknown; signature?: unknown };
  try {
    request = JSON.parse(line) as typeof request;
  } catch {
    return { ok: false, error: "La petición no es JSON." };
  }
  const name = typeof request.command === "string" ? request.command : "";
  const args = typeof request.args === "object" && request.args !== null ? (request.args as Record<string, unknown>) : {};
  if (name === "whois") return { ok: true, result: info };
  if (!signedByKey(key, name, args, request.signature))
    return {
      ok: false,
      error: `Petición no autorizada: solo el usuario del servidor, que puede leer ${CONTROL_KEY_FILE} en el DATA_DIR, da órdenes al servidor.`,
    };
  const handler = commands.get(name);
  if (!handler) return { ok: false, error: `Comando desconocido: ${name}` };
  try {
    return { ok: true, result: (await handler(args)) ?? null };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Sends one command to the process that owns dataDir and returns its result. Throws NoOwnerError
 * when no process owns it, and an Error with the owner's message when the command failed.
 */
export async function askOwner(
  dataDir: string,
  command: string,
  args: Record<string, unknown> = {},
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<unknown> {
  const address = controlAddress(dataDir);
  // Unreadable (another user): the request goes unsigned and the owner refuses it.
  let key: string | null = null;
  try {
    key = readFileSync(keyFile(dataDir), "utf8").trim();
  } catch {
    key = null;
  }
  const request = { command, args, ...(key && command !== "whois" ? { signature: signature(key, command, args) } : {}) };
  const line = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(address);
    let data = "";
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`El servidor que usa ${dataDir} no ha respondido a «${command}».`));
    });
    socket.on("connect", () => socket.write(JSON.stringify(request) + "\n"));
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("end", () => resolve(data));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? new NoOwnerError(path.resolve(dataDir)) : error);
    });
  });
  let message: { ok?: boolean; result?: unknown; error?: string };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    throw new Error(`Respuesta no válida del servidor que usa ${dataDir}.`);
  }
  if (!message.ok) throw new Error(message.error ?? "El comando ha fallado.");
  return message.result;
}
