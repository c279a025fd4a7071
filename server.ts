import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type RequestHandler } from "express";
import type { ViteDevServer } from "vite";
import { ConfigError, loadConfig } from "#lib/config.server";
import { createApi } from "#api/index";
import { openDatabase } from "#api/db/client";
import { migrate } from "#api/db/migrate";
import { seedIfEmpty } from "#api/db/seed";
import { seedDemoAccounts } from "#api/db/seed-accounts";
import { startReservationSweep } from "#api/services/sales";
import { startAnalyticsDelivery } from "#api/analytics/delivery";
import { securityHeaders, rejectCrossSiteForms } from "#app/lib/security.server";
import { refreshAuth } from "#app/lib/auth-refresh.server";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
const applied = await migrate(database.db);
if (applied.length) console.log(`Migraciones aplicadas: ${applied.join(", ")}`);
if (await seedIfEmpty(database.db)) console.log("Catálogo de demostración cargado.");
if (await seedDemoAccounts(database.db)) console.log("Cuentas de demostración creadas (README, «Cuentas de demostración»).");
const stopSweep = startReservationSweep(database.db);
const stopAnalytics = config.ANALYTICS_API_KEY
  ? startAnalyticsDelivery(database.db, { apiKey: config.ANALYTICS_API_KEY, url: config.ANALYTICS_HTTP_API_URL })
  : () => {};

const app = express();
app.disable("x-powered-by");
// Forwarded headers are believed only from this machine (the storefront calling its own API, or a
// local reverse proxy); anyone else could forge the client address or the public host.
app.set("trust proxy", "loopback");
app.use(compression());
app.use(securityHeaders);

app.use("/api/v0", createApi({ db: database.db, config }));

let viteDevServer: ViteDevServer | undefined;
if (config.isProduction) {
  // Hashed file names: safe to cache for a year and never revalidate.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static("build/client", { maxAge: "1h", index: false }));
} else {
  const vite = await import("vite");
  viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteDevServer.middlewares);
  app.use(express.static("public", { maxAge: "1h", index: false }));
}

app.use(rejectCrossSiteForms);
// The buyer's address, as Express worked it out (forwarded headers only from a trusted proxy),
// for the storefront to pass on to the API's rate limits. Whatever a client sent is overwritten.
app.use((req, _res, next) => {
  req.headers["x-ofertas-client-ip"] = req.ip ?? "";
  next();
});
// Expired access tokens are renewed once per request, before the storefront calls the API.
app.use(refreshAuth);
const remixHandler: RequestHandler = createRequestHandler({
  build: viteDevServer
    ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
    : ((await import(new URL("./build/server/index.js", import.meta.url).href)) as ServerBuild),
  mode: config.isProduction ? "production" : "development",
});
app.all("*", remixHandler);

const server = app.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  console.log(`ofertas escuchando en http://localhost:${port} (${database.kind})`);
});
server.keepAliveTimeout = 65_000;

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: cerrando…`);
  stopSweep();
  stopAnalytics();
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
    await viteDevServer?.close();
    await database.close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
