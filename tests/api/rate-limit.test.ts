import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler, handle } from "#api/http";
import { createLimits, rateLimit, type Limits } from "#api/rate-limit";
import { expectSpanish } from "./_helpers";

describe("keyed limits (api/rate-limit.ts)", () => {
  it("lets `points` calls through per key and window, then throws a Spanish 429 with Retry-After", async () => {
    const limits = createLimits();
    const opts = { points: 3, durationSec: 60 };
    for (let i = 0; i < 3; i++) await limits.consume("send-code:email:a@correo.es", opts);
    const error = await limits.consume("send-code:email:a@correo.es", opts).then(
      () => null,
      (e: unknown) => e as { status: number; detail: string; headers: Record<string, string> },
    );
    expect(error?.status).toBe(429);
    expectSpanish(error?.detail);
    expect(Number(error?.headers["Retry-After"])).toBeGreaterThan(0);
    // Another key, or the same key in another window shape, has its own counter.
    await limits.consume("send-code:email:b@correo.es", opts);
    await limits.consume("send-code:email:a@correo.es", { points: 10, durationSec: 60 });
    expect(await limits.remaining("send-code:email:b@correo.es", opts)).toBe(2);
  });

  it("charges a cost of several points at once and uses the caller's message", async () => {
    const limits = createLimits();
    const opts = { points: 5, durationSec: 60, message: "Demasiados códigos probados. Espera un minuto." };
    await limits.consume("promo:ip:1", { ...opts, cost: 4 });
    await expect(limits.consume("promo:ip:1", { ...opts, cost: 2 })).rejects.toMatchObject({ status: 429, detail: opts.message });
  });

  it("swapping the store starts from zero, so a shared store can be plugged in at start", async () => {
    const limits = createLimits();
    const opts = { points: 1, durationSec: 60 };
    await limits.consume("k", opts);
    await expect(limits.consume("k", opts)).rejects.toMatchObject({ status: 429 });
    const made: string[] = [];
    const { RateLimiterMemory } = await import("rate-limiter-flexible");
    limits.useStore((o) => {
      made.push(o.keyPrefix);
      return new RateLimiterMemory(o);
    });
    await limits.consume("k", opts);
    expect(made).toEqual(["rl1x60s"]);
  });
});

describe("middleware form", () => {
  let server: ReturnType<express.Express["listen"]>;
  let url: string;
  let limits: Limits;
  beforeAll(async () => {
    limits = createLimits();
    const app = express();
    app.set("trust proxy", "loopback");
    app.get(
      "/a",
      rateLimit({ name: "a", windowMs: 60_000, max: 2, message: "Demasiados intentos. Espera un minuto.", store: limits }),
      (_req, res) => {
        res.json({ ok: true });
      },
    );
    app.get(
      "/b",
      handle(async (req, res) => {
        await limits.consume(`b:ip:${req.ip}`, { points: 1, durationSec: 60 });
        res.json({ ok: true });
      }),
    );
    app.use(errorHandler(() => {}));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("limits per client address and per route name, answering JSON {detail}", async () => {
    const get = (path: string, ip: string) => fetch(url + path, { headers: { "X-Forwarded-For": ip } });
    expect((await get("/a", "203.0.113.1")).status).toBe(200);
    expect((await get("/a", "203.0.113.1")).status).toBe(200);
    const limited = await get("/a", "203.0.113.1");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toEqual({ detail: "Demasiados intentos. Espera un minuto." });
    expect((await get("/a", "203.0.113.2")).status).toBe(200);
    expect((await get("/b", "203.0.113.1")).status).toBe(200);
    const b = await get("/b", "203.0.113.1");
    expect(b.status).toBe(429);
    expectSpanish(((await b.json()) as { detail: string }).detail);
  });
});
