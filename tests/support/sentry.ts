/**
 * A stand-in for a Sentry server: accepts `POST /api/<project>/envelope/` as the SDKs send it,
 * parses the newline-delimited envelope (a header line, then each item's header and payload,
 * the payload `length` bytes long when its header says so) and keeps what arrived.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export type EnvelopeItem = { header: Record<string, unknown> & { type?: string }; payload: unknown };
export type Envelope = { project: string; key: string | null; header: Record<string, unknown>; items: EnvelopeItem[]; raw: string };
export type SentryEvent = Record<string, unknown> & {
  event_id?: string;
  tags?: Record<string, string>;
  exception?: { values?: { type?: string; value?: string }[] };
};

export type SentryStandIn = {
  /** A DSN for this server (key "e2ekey", project 7). */
  dsn: string;
  envelopes: Envelope[];
  /** The error events among everything received. */
  events: () => SentryEvent[];
  /** Resolves with the events once `count` have arrived; rejects after `ms`. */
  waitForEvents: (count: number, ms?: number) => Promise<SentryEvent[]>;
  close: () => Promise<void>;
};

export function parseEnvelope(body: Buffer): Pick<Envelope, "header" | "items"> {
  let at = 0;
  const line = () => {
    const end = body.indexOf(0x0a, at);
    const text = body.subarray(at, end === -1 ? body.length : end).toString("utf8");
    at = end === -1 ? body.length : end + 1;
    return text;
  };
  const header = JSON.parse(line()) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (at < body.length) {
    const itemHeaderLine = line();
    if (!itemHeaderLine.trim()) continue;
    const itemHeader = JSON.parse(itemHeaderLine) as EnvelopeItem["header"];
    let payload: string;
    if (typeof itemHeader.length === "number") {
      payload = body.subarray(at, at + itemHeader.length).toString("utf8");
      at += itemHeader.length;
      if (body[at] === 0x0a) at += 1;
    } else payload = line();
    let parsed: unknown = payload;
    try {
      parsed = JSON.parse(payload);
    } catch {
      // attachments and the like stay text
    }
    items.push({ header: itemHeader, payload: parsed });
  }
  return { header, items };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return req.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body;
}

export async function startSentryStandIn(port = 0): Promise<SentryStandIn> {
  const envelopes: Envelope[] = [];
  const waiting = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    // The browser SDK posts from the shop's origin.
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Headers", "*");
    const url = new URL(req.url ?? "/", "http://stand-in");
    const match = /^\/api\/(\d+)\/envelope\/$/.exec(url.pathname);
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    if (req.method !== "POST" || !match) return void res.writeHead(404).end();
    readBody(req).then(
      (body) => {
        const auth = String(req.headers["x-sentry-auth"] ?? "");
        const key = url.searchParams.get("sentry_key") ?? /sentry_key=([^,\s]+)/.exec(auth)?.[1] ?? null;
        envelopes.push({ project: match[1], key, ...parseEnvelope(body), raw: body.toString("utf8") });
        for (const wake of waiting) wake();
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  const events = () => envelopes.flatMap((e) => e.items.filter((i) => i.header.type === "event").map((i) => i.payload as SentryEvent));
  return {
    dsn: `http://e2ekey@127.0.0.1:${bound}/7`,
    envelopes,
    events,
    waitForEvents: (count, ms = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events().length < count) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(events());
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${events().length} of ${count} Sentry events arrived in ${ms} ms`));
        }, ms);
        waiting.add(check);
        check();
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
