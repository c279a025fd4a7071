/**
 * What the operator's checks share (operations*.spec.ts): servers in their own processes, stopped
 * after each test; a PostgreSQL database of the test's own, and a way to it the test can cut; a
 * deployment's settings; a request as the proxy in front of a deployment sends it.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { test } from "@playwright/test";
import { startEnv, startFlags } from "../../scripts/start-flags";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DATABASE_URL = process.env.TEST_DATABASE_URL;
export const SHOP_HOST = "tienda.example";

/**
 * A deployment's own settings (PUBLIC_URL https://…): a strong secret, the sandbox as a staging
 * site, and mail written as files (these checks read no mail).
 */
export const DEPLOYMENT = {
  PUBLIC_URL: `https://${SHOP_HOST}`,
  SESSION_SECRET: "8f3c1e9a7b6d4c2e0f5a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e",
  PAYMENT_PROVIDER: "sandbox",
  MAIL_TO_FILES: "1",
} as const;

/** Servers started by a test file, each stopped (SIGTERM, by its own child) after every test. */
export function serverProcesses() {
  const running = new Set<ServerProcess>();
  test.afterEach(async () => {
    await Promise.all([...running].map((s) => s.stop()));
  });
  return async (env: Record<string, string>, options?: { command?: string[] }): Promise<ServerProcess> => {
    const server = await startServerProcess(env, options);
    running.add(server);
    void server.exit.then(() => running.delete(server));
    return server;
  };
}

/** The compiled server run until it exits by itself (a refused start): its exit code and output. */
export function runUntilExit(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...startFlags(ROOT), "build/node/server.js"], {
    cwd: ROOT,
    env: { ...process.env, ...startEnv(ROOT), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A PostgreSQL database of the test's own, dropped afterwards whatever happened. */
export async function withDatabase(label: string, use: (url: URL) => Promise<void>) {
  const name = `ofertas_ops_${label}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${name}`;
  try {
    await use(url);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * A way to `url`'s PostgreSQL that the test can cut (every link dropped, new ones refused) and
 * restore: the server under test is given `via` instead of the database's own address.
 */
export async function databaseProxy(url: URL): Promise<{ via: URL; cut(): void; restore(): void; close(): void }> {
  const upstream = new URL(DATABASE_URL!);
  const links = new Set<net.Socket>();
  let cut = false;
  const proxy = net
    .createServer((socket) => {
      if (cut) return socket.destroy();
      const to = net.connect(Number(upstream.port || 5432), upstream.hostname);
      links.add(socket).add(to);
      socket.pipe(to).pipe(socket);
      const end = () => {
        socket.destroy();
        to.destroy();
      };
      socket.on("error", end).on("close", end);
      to.on("error", end).on("close", end);
    })
    .listen(0, "127.0.0.1");
  await new Promise((r) => proxy.once("listening", r));
  const via = new URL(url);
  via.hostname = "127.0.0.1";
  via.port = String((proxy.address() as net.AddressInfo).port);
  const dropLinks = () => {
    for (const s of links) s.destroy();
  };
  return {
    via,
    cut: () => {
      cut = true;
      dropLinks();
    },
    restore: () => {
      cut = false;
    },
    close: () => {
      proxy.close();
      dropLinks();
    },
  };
}

/** One statement's rows on a database. */
export async function sql<T extends pg.QueryResultRow>(url: URL | string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

export type Answer = { status: number; json: any; text: string; headers: http.IncomingHttpHeaders };

/**
 * A request as the proxy in front of a deployment passes it: the shop's Host, X-Forwarded-Proto,
 * and whatever else `headers` adds (X-Forwarded-For only when given).
 */
export function request(
  server: ServerProcess,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
  raw?: string,
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      server.url(pathname),
      {
        method,
        agent: false,
        headers: { host: SHOP_HOST, "x-forwarded-proto": "https", "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, json, text, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(raw ?? (body === undefined ? undefined : JSON.stringify(body)));
  });
}

/** The headers of a request made on this machine to a try-out (no PUBLIC_URL): its own host. */
export const onThisMachine = (server: ServerProcess) => ({ host: `127.0.0.1:${server.port}`, "x-forwarded-proto": "http" });

/**
 * One purchase through the API of a try-out (validate, create, the sandbox's «Pagar», capture), as
 * scripts/production-purchase.mjs makes it: its sale id.
 */
export async function purchase(server: ServerProcess, email: string): Promise<string> {
  const here = onThisMachine(server);
  const list = await request(server, "GET", "/api/v0/public/offers/?page_size=24", undefined, here);
  type Listed = { uuid: string; actual_price: string; available: number; per_customer: number | null };
  const options = (list.json.results as { price_options: Listed[] }[]).flatMap((offer) => offer.price_options);
  const option = options.find((o) => o.available >= 10)!;
  const order = {
    items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.actual_price, slot_id: null, promo_codes: [] }],
    checkout_data: { subs_agreement: true, email, need_receipt: false, for_present: [] },
  };
  const validated = await request(server, "POST", "/api/v0/sales/validate/", order, here);
  const created = await request(
    server,
    "POST",
    "/api/v0/sales/create/",
    { session_token: validated.json.checkout_data.session_token },
    here,
  );
  const payment = created.json.payment;
  const page = new URL(payment.redirect_url);
  const paid = await request(
    server,
    "POST",
    page.pathname,
    undefined,
    { ...here, "content-type": "application/x-www-form-urlencoded" },
    "action=pay",
  );
  if (paid.status !== 303) throw new Error(`sandbox pay: ${paid.status} ${paid.text.slice(0, 200)}`);
  const captured = await request(
    server,
    "POST",
    `/api/v0/sales/capture/${payment.sale_id}/`,
    { transaction_id: payment.transaction_id },
    here,
  );
  if (captured.json?.status !== "paid") throw new Error(`capture: ${captured.status} ${captured.text.slice(0, 200)}`);
  return payment.sale_id as string;
}

/** Whether a process of that id still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
