/**
 * A deployment behind a proxy on the same machine that forwards no X-Forwarded-For (nginx's
 * default proxy_pass): to the shop each request comes from loopback with no forwarded address,
 * exactly as these requests do. The per-address limits still hold, /metrics still needs its token
 * (or its own port), and the log says once how to fix the proxy. Browser-free: `js` runs them once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { MAX_UNPAID_SALES_PER_ADDRESS } from "#rules/limits";
import { DEPLOYMENT, request, serverProcesses } from "./operations-helpers";
import type { ServerProcess } from "#tests/support/server-process";

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

// One embedded database for the file: the first start builds it, the later ones reuse it.
const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-ops-proxy-"));
test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const start = serverProcesses();
const TOKEN = "metrics-token-0123456789abcdef";
const deployment = { ...DEPLOYMENT, DATA_DIR: dataDir, DATABASE_URL: "", DEMO_DATA: "1", TRUST_PROXY: "loopback" };

type ListedOption = { uuid: string; actual_price: string; available: number; per_customer: number | null };

/** The demo option with the most left: seven single tickets, each for another email, fit in its half. */
async function roomyOption(server: ServerProcess): Promise<{ uuid: string; price: string }> {
  const list = await request(server, "GET", "/api/v0/public/offers/?page_size=48");
  const options = (list.json.results as { price_options: ListedOption[] }[]).flatMap((offer) => offer.price_options);
  const [best] = options.sort((a, b) => b.available - a.available);
  expect(best?.available ?? 0).toBeGreaterThanOrEqual(2 * (MAX_UNPAID_SALES_PER_ADDRESS + 2));
  return { uuid: best.uuid, price: best.actual_price };
}

test("no X-Forwarded-For from a trusted local proxy: one warning with the fix, every buyer shares the proxy's limits", async () => {
  const server = await start({ ...deployment, METRICS_TOKEN: TOKEN });
  await server.waitReady(240_000);
  const option = await roomyOption(server);
  const statuses: number[] = [];
  for (let i = 0; i < MAX_UNPAID_SALES_PER_ADDRESS + 2; i++) {
    const order = {
      items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email: `tras-nginx${i}@correo.example`, need_receipt: false, for_present: [] },
    };
    const validated = await request(server, "POST", "/api/v0/sales/validate/", order);
    expect(validated.status, validated.text).toBe(200);
    const created = await request(server, "POST", "/api/v0/sales/create/", { session_token: validated.json.checkout_data.session_token });
    statuses.push(created.status);
  }
  // Loopback is not exempt: these buyers are one address to the shop, and it holds 5 at most.
  expect(statuses).toEqual([...Array(MAX_UNPAID_SALES_PER_ADDRESS).fill(201), 429, 429]);
  const warnings = server.lines.filter((l) => String(l.msg).includes("sin X-Forwarded-For"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 40, peer: "127.0.0.1" });
  expect(String(warnings[0].msg)).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for");
  // A request that does carry the header is a buyer of its own.
  const forwarded = await request(server, "GET", "/api/v0/public/offers/?page_size=1", undefined, { "x-forwarded-for": "203.0.113.7" });
  expect(forwarded.status).toBe(200);
});

test("/metrics in a deployment: never open by address, only with METRICS_TOKEN", async () => {
  const server = await start({ ...deployment, METRICS_TOKEN: TOKEN });
  await server.waitReady(240_000);
  expect((await fetch(server.url("/metrics"))).status).toBe(401);
  const authorized = await fetch(server.url("/metrics"), { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(authorized.status).toBe(200);
  expect(await authorized.text()).toContain("ofertas_http_request_duration_seconds");
});

test("METRICS_PORT: /metrics on a port of its own, open there, and not on the shop's port", async () => {
  const metricsPort = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const server = await start({ ...deployment, METRICS_PORT: String(metricsPort) });
  await server.waitReady(240_000);
  const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(scrape.status).toBe(200);
  expect(await scrape.text()).toContain("nodejs_eventloop_lag_seconds");
  expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  const onShop = await request(server, "GET", "/metrics");
  expect(onShop.status).toBe(404);
  expect(onShop.text).not.toContain("nodejs_eventloop_lag_seconds");
});
