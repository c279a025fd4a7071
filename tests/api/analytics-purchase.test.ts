import { sql } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { classify, deliverDueEvents } from "#api/analytics/delivery";
import { query } from "#api/db/client";
import { AMPLITUDE_EU_HTTP_API, amplitudeHandlers, createAmplitudeMockState, type AmplitudeMockState } from "#tests/mocks/amplitude";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { capture, makeOption, makePromo, newEmail, sandboxAction, sessionFor, type Option } from "./_helpers";

// Only the analytics host is mocked; our own API on 127.0.0.1 is reached for real.
const server = setupServer();
let api: TestApi;
let option: Option;
let amplitude: AmplitudeMockState;
const delivery = { apiKey: "test-analytics-key", url: AMPLITUDE_EU_HTTP_API };

beforeAll(async () => {
  server.listen({ onUnhandledRequest: (req, print) => (new URL(req.url).hostname === "127.0.0.1" ? undefined : print.error()) });
  api = await startTestApi();
  option = await makeOption(api, { available: 1000, price: "24.50" });
});
afterAll(async () => {
  server.close();
  await api.close();
});
beforeEach(() => {
  amplitude = createAmplitudeMockState();
  server.use(...amplitudeHandlers(amplitude));
});
afterEach(async () => {
  server.resetHandlers();
  await api.db.execute(sql`DELETE FROM analytics_outbox`);
});

/** validate → create (with or without the buyer's analytics consent) → pay → capture. */
async function buy(analytics: { device_id: string | null } | undefined, promo?: string) {
  const email = newEmail("analitica");
  const token = await sessionFor(api, [{ option, quantity: 2, promo: promo ? [promo] : [] }], email);
  const created = await call(api, "/sales/create/", { body: { session_token: token, ...(analytics ? { analytics } : {}) } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const payment = created.body.payment;
  expect((await sandboxAction(payment, "pay")).status).toBe(303);
  const captured = await capture(api, payment);
  expect(captured.status).toBe(200);
  return { payment, email, coupons: captured.body.items.flatMap((i: { coupons: string[] }) => i.coupons) as string[] };
}

const outbox = () =>
  query<{ status: string; attempts: number; last_status: number | null }>(
    api.db,
    sql`SELECT status, attempts, last_status FROM analytics_outbox`,
  );
const makeDue = () => api.db.execute(sql`UPDATE analytics_outbox SET send_after = now() WHERE status = 'queued'`);

describe("server-side purchase event", () => {
  it("sends one Purchase with the revenue to the EU HTTP API after capture, never an email or a coupon code", async () => {
    await makePromo(api, { code: "ANALITICA10", discountType: "percent", discountValue: "10" });
    const { payment, email, coupons } = await buy({ device_id: "device-abc-123" }, "ANALITICA10");
    // A second capture (the webhook, a reload) queues nothing more.
    await capture(api, payment);
    expect(await deliverDueEvents(api.db, delivery)).toBe(1);
    expect(amplitude.batches).toHaveLength(1);
    const [batch] = amplitude.batches;
    expect(batch.api_key).toBe("test-analytics-key");
    expect(batch.events).toHaveLength(1);
    const [event] = batch.events;
    expect(event).toMatchObject({
      event_type: "Purchase",
      device_id: "device-abc-123",
      insert_id: `purchase-${payment.sale_id}`,
      revenue: 44.1, // 2 × 24,50 € − 10 %
      revenueType: "purchase",
      event_properties: { currency: "EUR", tickets: 2, offers: 1, promo_code_used: true },
    });
    const text = JSON.stringify(batch);
    expect(text).not.toContain(email);
    expect(text).not.toMatch(/@/);
    for (const code of coupons) expect(text).not.toContain(code);
    expect(text).not.toContain("ANALITICA10");
    expect(await outbox()).toEqual([{ status: "sent", attempts: 1, last_status: 200 }]);
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(amplitude.batches).toHaveLength(1);
  });

  it("sends nothing for a buyer who did not accept analytics", async () => {
    await buy(undefined);
    expect(await outbox()).toEqual([]);
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(amplitude.batches).toHaveLength(0);
  });

  it("without the browser's device id (no JavaScript) the sale stands for the device", async () => {
    const { payment } = await buy({ device_id: null });
    await deliverDueEvents(api.db, delivery);
    expect(amplitude.batches[0].events[0].device_id).toBe(`sale-${payment.sale_id}`);
  });

  it("retries after 429 and after 5xx, then succeeds with the same insert_id", async () => {
    amplitude.answers.push(429, 503);
    await buy({ device_id: "device-retry-1" });
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(await outbox()).toEqual([{ status: "queued", attempts: 1, last_status: 429 }]);
    // Not due yet: nothing is sent before the back-off.
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(amplitude.batches).toHaveLength(1);
    await makeDue();
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(await outbox()).toEqual([{ status: "queued", attempts: 2, last_status: 503 }]);
    await makeDue();
    expect(await deliverDueEvents(api.db, delivery)).toBe(1);
    expect(await outbox()).toEqual([{ status: "sent", attempts: 3, last_status: 200 }]);
    expect(new Set(amplitude.batches.map((b) => b.events[0].insert_id)).size).toBe(1);
  });

  it("retries when Amplitude cannot be reached at all", async () => {
    amplitude.down = true;
    await buy({ device_id: "device-down-1" });
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(await outbox()).toMatchObject([{ status: "queued", attempts: 1, last_status: null }]);
  });

  it.each([400, 401, 413])("does not retry a %i: the event is marked failed", async (status) => {
    amplitude.answers.push(status);
    await buy({ device_id: "device-4xx-1" });
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(await outbox()).toEqual([{ status: "failed", attempts: 1, last_status: status }]);
    await makeDue();
    expect(await deliverDueEvents(api.db, delivery)).toBe(0);
    expect(amplitude.batches).toHaveLength(1);
  });

  it("gives up after the spec's 12 retries", async () => {
    amplitude.answers.push(...Array(13).fill(500));
    await buy({ device_id: "device-500-13" });
    for (let i = 0; i < 13; i++) {
      await makeDue();
      await deliverDueEvents(api.db, delivery);
    }
    expect(amplitude.batches).toHaveLength(13);
    expect(await outbox()).toEqual([{ status: "failed", attempts: 13, last_status: 500 }]);
  });

  it("maps statuses as spec section 8 does", () => {
    expect(classify(200).kind).toBe("success");
    expect(classify(299).kind).toBe("success");
    expect(classify(429)).toMatchObject({ kind: "rate_limit", retry: true });
    expect(classify(413)).toMatchObject({ kind: "payload_too_large", retry: false });
    expect(classify(408)).toMatchObject({ kind: "timeout", retry: true });
    expect(classify(404)).toMatchObject({ kind: "invalid", retry: false });
    expect(classify(500)).toMatchObject({ kind: "failed", retry: true });
    expect(classify(502)).toMatchObject({ kind: "failed", retry: true });
  });
});
