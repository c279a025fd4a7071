import { describe, expect, it } from "vitest";
import { Recent } from "#platform/recent";

describe("Recent", () => {
  it("keeps at most its limit, forgetting the least recently used first", () => {
    const recent = new Recent<string, number>(2);
    recent.set("a", 1);
    recent.set("b", 2);
    expect(recent.get("a")).toBe(1); // a is now the most recently used
    recent.set("c", 3);
    expect(recent.size).toBe(2);
    expect(recent.has("b")).toBe(false);
    expect(recent.get("a")).toBe(1);
    expect(recent.get("c")).toBe(3);
  });

  it("has() is not a use; setting a kept key replaces it without dropping another", () => {
    const recent = new Recent<string, number>(2);
    recent.set("a", 1);
    recent.set("b", 2);
    expect(recent.has("a")).toBe(true);
    recent.set("c", 3); // a was only looked at: it is still the oldest
    expect(recent.has("a")).toBe(false);
    recent.set("c", 30);
    expect(recent.size).toBe(2);
    expect(recent.get("b")).toBe(2);
    expect(recent.get("c")).toBe(30);
  });
});
