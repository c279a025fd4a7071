/**
 * A flash sale: 1,000 buyers for an option with 100 tickets, 200 at a time, each through the whole
 * journey (validate → create → sandbox «Pagar» → capture). Exactly 100 tickets are sold, every
 * other buyer is told the option is sold out with a 4xx and nothing answers 5xx. How long requests
 * take depends on the machine and what else runs beside the suite: `BENCH_ONLY=flash npm run bench`
 * holds the 5 s bound and the speed, against a reference measured in the same run. Each buyer comes from its own address (X-Forwarded-For from loopback, which the API
 * trusts as a local proxy's), so the per-address limits see 1,000 people, not one. On PostgreSQL
 * the buyers alternate between two API instances with their own pools, as two processes would.
 */
import express from "express";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApi } from "#api/index";
import { openDatabase, query, type DatabaseHandle } from "#api/db/client";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { available, makeOption, newEmail, orderBody, type Option } from "./_helpers";

const BUYERS = 1_000;
const AT_ONCE = 200;
const TICKETS = 100;

let api: TestApi;
/** Every request of the sale: none may answer 5xx. */
const steps: Step[] = [];
let second: { db: DatabaseHandle; server: Server; url: string } | null = null;
beforeAll(async () => {
  api = await startTestApi();
  if (api.databaseUrl) {
    const db = await openDatabase({ databaseUrl: api.databaseUrl });
    const app = express();
    app.set("trust proxy", "loopback");
    app.use("/api/v0", createApi({ db: db.db, config: api.config, log: () => {} }));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    second = { db, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v0` };
  }
});
afterAll(async () => {
  if (second) {
    second.server.closeAllConnections();
    await new Promise((r) => second!.server.close(r));
    await second.db.close();
  }
  await api.close();
});

type Step = { name: string; status: number; ms: number; body: unknown };

async function timed(name: string, url: string, init: RequestInit, address: string): Promise<Step> {
  const started = performance.now();
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", "X-Forwarded-For": address, ...(init.headers as Record<string, string>) },
    redirect: "manual",
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // the sandbox page answers HTML
  }
  return { name, status: response.status, ms: performance.now() - started, body };
}

/** One buyer's journey; stops at the first refusal. */
async function buyer(n: number, option: Option, steps: Step[]): Promise<"paid" | "sold-out"> {
  const base = second && n % 2 ? second.url : api.url;
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const post = (path: string, body: unknown) => ({ method: "POST", body: JSON.stringify(body), path });
  const record = (step: Step) => (steps.push(step), step);

  const v = post("/sales/validate/", orderBody([{ option }], newEmail(`flash${n}`)));
  const validated = record(await timed("validate", `${base}${v.path}`, v, address));
  const errors = (validated.body as { errors?: { error_text: string }[] }).errors ?? [];
  if (validated.status !== 200 || errors.length) {
    expect(validated.status).toBe(400);
    expect(errors.map((e) => e.error_text).join(" ")).toMatch(/agotad/);
    return "sold-out";
  }
  const token = (validated.body as { checkout_data: { session_token: string } }).checkout_data.session_token;
  const c = post("/sales/create/", { session_token: token });
  const created = record(await timed("create", `${base}${c.path}`, c, address));
  if (created.status !== 201) {
    expect(created.status, JSON.stringify(created.body)).toBe(409);
    expect((created.body as { detail: string }).detail).toMatch(/agotad/);
    return "sold-out";
  }
  const payment = (created.body as { payment: { sale_id: string; transaction_id: string; redirect_url: string } }).payment;
  const paid = record(
    await timed(
      "pay",
      payment.redirect_url,
      { method: "POST", body: "action=pay", headers: { "content-type": "application/x-www-form-urlencoded" } },
      address,
    ),
  );
  expect(paid.status).toBe(303);
  const cap = post(`/sales/capture/${payment.sale_id}/`, { transaction_id: payment.transaction_id });
  const captured = record(await timed("capture", `${base}${cap.path}`, cap, address));
  expect(captured.status, JSON.stringify(captured.body)).toBe(200);
  expect((captured.body as { status: string }).status).toBe("paid");
  return "paid";
}

it(`${BUYERS} buyers, ${AT_ONCE} at a time, for ${TICKETS} tickets: exactly ${TICKETS} sold, the rest a 4xx «agotada», no 5xx`, async () => {
  const option = await makeOption(api, { available: TICKETS, price: "9.00" });
  const outcomes: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < BUYERS) outcomes.push(await buyer(next++, option, steps));
    }),
  );
  expect(outcomes).toHaveLength(BUYERS);
  expect(outcomes.filter((o) => o === "paid")).toHaveLength(TICKETS);
  expect(steps.filter((s) => s.status >= 500)).toEqual([]);
  expect(await available(api, option.uuid)).toBe(0);
  const [sold] = await query<{ tickets: number; sales: number }>(
    api.db,
    sql`SELECT coalesce(sum(i.quantity), 0)::int AS tickets, count(DISTINCT s.id)::int AS sales
        FROM sales s JOIN sale_items i ON i.sale_id = s.id
        WHERE i.price_option_id = ${option.uuid} AND s.status = 'paid'`,
  );
  expect(sold).toEqual({ tickets: TICKETS, sales: TICKETS });
}, 300_000);
