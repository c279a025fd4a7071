// @vitest-environment node
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { inArrivalOrder } from "#server/arrival-order";

/** A raw keep-alive connection: requests written by hand, so that two can leave in the same tick. */
function connection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let buffered = "";
  const waiters: (() => void)[] = [];
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    // Each answer is "HTTP/1.1 200 OK … \r\n\r\nok": one per "ok" at the end of a response.
    while (buffered.includes("\r\n\r\nok")) {
      buffered = buffered.slice(buffered.indexOf("\r\n\r\nok") + 6);
      waiters.shift()?.();
    }
  });
  return {
    ready: new Promise<void>((resolve) => socket.once("connect", () => resolve())),
    send(path: string) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => socket.destroy(),
  };
}

describe("inArrivalOrder", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("handles the connection answered longest ago first, whatever order the sockets were read in", async () => {
    const handled: string[] = [];
    server = createServer(
      inArrivalOrder((req, res) => {
        handled.push(req.url!);
        // The first answer on /a leaves 30 ms after the one on /b.
        const later = req.url === "/a/1" ? 30 : 0;
        setTimeout(() => res.writeHead(200, { "Content-Length": "2" }).end("ok"), later);
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const a = connection(port);
    const b = connection(port);
    await Promise.all([a.ready, b.ready]);

    await Promise.all([a.send("/a/1"), b.send("/b/1")]);
    // Written in one tick, /a first: both are read in the same poll. /b was answered first, so it
    // has waited longer for its turn.
    await Promise.all([a.send("/a/2"), b.send("/b/2")]);
    expect(handled).toEqual(["/a/1", "/b/1", "/b/2", "/a/2"]);
    a.close();
    b.close();
  });

  it("answers every request of many connections, each once", async () => {
    const seen = new Map<string, number>();
    server = createServer(
      inArrivalOrder((req, res) => {
        seen.set(req.url!, (seen.get(req.url!) ?? 0) + 1);
        res.writeHead(200, { "Content-Length": "2" }).end("ok");
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const clients = Array.from({ length: 8 }, () => connection(port));
    await Promise.all(clients.map((c) => c.ready));
    for (let round = 0; round < 5; round++) await Promise.all(clients.map((c, i) => c.send(`/${i}/${round}`)));
    expect(seen.size).toBe(40);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    for (const c of clients) c.close();
  });
});
