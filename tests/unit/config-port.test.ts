// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#platform/config.server";

const base = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret-for-the-port-test-0123456789",
  DATA_DIR: "/tmp/ofertas-test-unused",
} as const;

describe("PORT", () => {
  it("refuses a port Node's fetch will not connect to, at start, naming it", async () => {
    // The storefront reaches its own API over loopback fetch: on such a port every page was a 500.
    await expect(fetch("http://127.0.0.1:4190/")).rejects.toThrow();
    expect(() => loadConfig({ ...base, PORT: "4190" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PORT: "4190" })).toThrow(/4190.*fetch/);
  });

  it("takes an ordinary port", () => {
    expect(loadConfig({ ...base, PORT: "4191" }).PORT).toBe(4191);
  });
});
