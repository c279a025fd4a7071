/**
 * An outage fails every request: its error is logged whole once, then counted, with one line per
 * interval saying how many more there were (an 8 s outage once wrote 1,137 full records).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { repeatedErrors } from "#platform/repeated-errors.server";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("repeatedErrors", () => {
  it("logs the first of a kind whole, counts the rest, and sums them up once per interval", () => {
    const summaries: [string, number][] = [];
    const errors = repeatedErrors({ intervalMs: 10_000, summary: (kind, count) => summaries.push([kind, count]) });
    const logged = Array.from({ length: 1_137 }, () => errors.first("base de datos 57P01")).filter(Boolean);
    expect(logged).toHaveLength(1);
    // Another kind is its own first.
    expect(errors.first("base de datos 08006")).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(summaries).toEqual([["base de datos 57P01", 1_136]]);
    // Still failing: counted into the next interval's line.
    expect(errors.first("base de datos 57P01")).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(summaries).toEqual([
      ["base de datos 57P01", 1_136],
      ["base de datos 57P01", 1],
    ]);
    // Quiet for a whole interval: the next one is logged whole again.
    vi.advanceTimersByTime(10_000);
    expect(errors.first("base de datos 57P01")).toBe(true);
  });
});
