// @vitest-environment node
import { describe, expect, it } from "vitest";
import { loadConfig } from "#platform/config.server";

const base = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret-for-the-payments-config-0123456789",
  DATA_DIR: "/tmp/ofertas-test-unused",
} as const;

describe("PAYMENT_TIMEOUT_MS", () => {
  it("gives every payment provider call 10 s unless told otherwise", () => {
    expect(loadConfig(base).PAYMENT_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ ...base, PAYMENT_TIMEOUT_MS: "2500" }).PAYMENT_TIMEOUT_MS).toBe(2500);
  });

  it("refuses a value that is not a number of milliseconds in range, naming the variable", () => {
    for (const value of ["diez", "0", "-1", "1.5", "600000"]) {
      expect(() => loadConfig({ ...base, PAYMENT_TIMEOUT_MS: value }), value).toThrow(/PAYMENT_TIMEOUT_MS/);
    }
  });
});
