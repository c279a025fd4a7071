import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

/** An Express app listening on a free loopback port: its origin, and how to stop it. */
export async function listen(app: Express): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
