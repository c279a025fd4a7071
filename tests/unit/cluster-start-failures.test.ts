/**
 * A cluster primary whose copies keep dying at start gives up with exit code 1, so the process
 * supervisor sees the failure, rather than re-forking forever with nothing serving.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("WEB_CONCURRENCY > 1: copies that die at start", () => {
  it("after MAX_START_FAILURES deaths in a row the primary exits 1 and says why", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/cluster-dying.ts"], {
      env: { ...process.env, LOG_LEVEL: "info", MAX_START_FAILURES: "3" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.on("exit", (c) => (clearTimeout(timer), resolve(c)));
    });
    expect(code, output).toBe(1);
    expect(output).toContain("Los procesos mueren al arrancar (3 veces seguidas)");
    expect(output.match(/Proceso terminado; se arranca otro\./g)).toHaveLength(2);
  }, 30_000);
});
