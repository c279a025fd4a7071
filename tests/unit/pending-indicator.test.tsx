// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePendingIndicator } from "#app/components/use-pending-indicator";

describe("usePendingIndicator (pending threshold and minimum display, spec section 9)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const opts = { delay: 1000, minDuration: 500 };

  it("shows nothing for a wait shorter than the threshold", () => {
    const { result, rerender } = renderHook(({ busy }) => usePendingIndicator(busy, opts), { initialProps: { busy: true } });
    act(() => void vi.advanceTimersByTime(900));
    rerender({ busy: false });
    act(() => void vi.advanceTimersByTime(2000));
    expect(result.current).toBe(false);
  });

  it("once shown, stays at least 500 ms even if the wait ends at once", () => {
    const { result, rerender } = renderHook(({ busy }) => usePendingIndicator(busy, opts), { initialProps: { busy: true } });
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(186));
    rerender({ busy: false });
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(300));
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(14));
    expect(result.current).toBe(false);
  });

  it("with delay 0 (offer detail, payment) shows at once, and a long wait hides right when it ends", () => {
    const { result, rerender } = renderHook(({ busy }) => usePendingIndicator(busy, { delay: 0, minDuration: 500 }), {
      initialProps: { busy: true },
    });
    act(() => void vi.advanceTimersByTime(0));
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(2000));
    rerender({ busy: false });
    act(() => void vi.advanceTimersByTime(0));
    expect(result.current).toBe(false);
  });
});
