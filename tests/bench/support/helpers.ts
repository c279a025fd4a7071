/** What every bench section uses: formatting, tables, plain HTTP that counts the bytes on the wire. */
import http from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync, gunzipSync } from "node:zlib";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const KB = 1024;

export const fmtBytes = (n: number) => (n >= KB ? `${(n / KB).toFixed(1)} KB` : `${n} B`);
export const fmtMs = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : "no answer");

export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(cells[0]), widths.map((w) => "─".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function heading(title: string) {
  console.log(`\n== ${title} ${"=".repeat(Math.max(0, 70 - title.length))}`);
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; raw: Buffer; body: Buffer };

/** GET with node:http, so the bytes on the wire (gzip or not) are what we count. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = String(res.headers["content-encoding"] ?? "identity");
        let body = raw;
        if (encoding === "gzip") body = gunzipSync(raw);
        else if (encoding !== "identity") return reject(new Error(`${url}: unexpected content-encoding ${encoding}`));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${url}: timed out`)));
    req.on("error", reject);
  });
}

/** Size of a response gzip-compressed: as transferred when the server gzipped it, else gzip -9 here. */
export function gzipSize(r: RawResponse): number {
  return r.headers["content-encoding"] === "gzip" ? r.raw.length : gzipSync(r.body, { level: 9 }).length;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
