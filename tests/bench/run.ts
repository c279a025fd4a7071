/**
 * npm run bench: page weight, throughput and a concurrent checkout against the production build.
 *
 * Starts `server.ts` in production mode on a free port with a fresh temporary DATA_DIR (so the demo
 * catalogue is seeded anew), runs the sections of sections.ts that BENCH_ONLY names (by default,
 * those marked byDefault), and always stops the server. Exits 1 only when the checkout hands out
 * more tickets than an option had; budget misses are printed, not fatal.
 */
import { SECTIONS } from "./sections";
import { figures } from "./support/figures";
import { heading, table } from "./support/helpers";
import { buildIfNeeded, startServer, stop, stopServer } from "./support/server";

function chosenSections() {
  const names = process.env.BENCH_ONLY?.split(",").map((n) => n.trim());
  const unknown = names?.filter((n) => !SECTIONS.some((s) => s.name === n)) ?? [];
  if (unknown.length)
    console.log(`BENCH_ONLY names no section ${unknown.join(", ")} (sections: ${SECTIONS.map((s) => s.name).join(", ")})`);
  return SECTIONS.filter((s) => (names ? names.includes(s.name) : s.byDefault));
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const chosen = chosenSections();
  await buildIfNeeded();
  heading("Server");
  const tStart = Date.now();
  const server = await startServer();
  console.log(
    `production server at ${server.origin} (fresh DATA_DIR ${server.dataDir}), ready in ${((Date.now() - tStart) / 1000).toFixed(1)} s`,
  );
  const tBench = Date.now();
  try {
    let broken = 0;
    for (const section of chosen) if (section.onShop) broken += (await section.run(server)) ?? 0;
    await stop(server);
    for (const section of chosen) if (!section.onShop) broken += (await section.run()) ?? 0;
    heading("Summary");
    console.log(
      table(
        ["measure", "result", "reference", ""],
        figures.map((f) => [f.measure, f.result, f.reference, f.pass === null ? "info" : f.pass ? "PASS" : "FAIL"]),
      ),
    );
    heading("Done");
    console.log(
      `bench ${((Date.now() - tBench) / 1000).toFixed(1)} s (total with start-up/build ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
    return broken === 0 ? 0 : 1;
  } catch (error) {
    if (!interrupted) console.error("\nserver log (last lines):\n" + server.log.slice(-20).join("\n"));
    throw error;
  } finally {
    await stopServer();
  }
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping the server…`);
    void stopServer().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    if (!interrupted) console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await stopServer();
    process.exit(interrupted ? 130 : 2);
  },
);
