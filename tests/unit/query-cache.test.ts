// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cached, DATA_FRESH_MS, forget } from "#app/routes/order.history/query-cache";

beforeEach(() => forget());

describe("the browser's data cache (ORDER_HISTORY)", () => {
  it("answers from memory for a minute, then asks again", async () => {
    const load = vi.fn(async () => ({ purchases: [1] }));
    const t = 1_000_000;
    await cached("ORDER_HISTORY:1", load, t);
    await cached("ORDER_HISTORY:1", load, t + DATA_FRESH_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await cached("ORDER_HISTORY:1", load, t + DATA_FRESH_MS);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("keys are separate, and a failed load is neither kept nor retried", async () => {
    const fail = vi.fn(async () => {
      throw new Error("500");
    });
    await expect(cached("ORDER_HISTORY:2", fail)).rejects.toThrow("500");
    expect(fail).toHaveBeenCalledTimes(1);
    const load = vi.fn(async () => "ok");
    expect(await cached("ORDER_HISTORY:2", load)).toBe("ok");
    expect(await cached("ORDER_HISTORY:3", load)).toBe("ok");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("any form submitted on the page empties it (log in, log out, buy)", async () => {
    const load = vi.fn(async () => "list");
    await cached("ORDER_HISTORY:1", load);
    const form = document.createElement("form");
    form.addEventListener("submit", (e) => e.preventDefault());
    document.body.append(form);
    form.requestSubmit();
    await cached("ORDER_HISTORY:1", load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
