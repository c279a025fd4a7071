import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFiles } from "#server/static-files";
import { listen } from "#tests/support/listen";

/*
 * The build's files as the production server serves them, from a real directory over HTTP. The
 * page handler after them answers as Remix does (res.append of its Content-Type), so a request
 * that falls through with a header left behind fails as it did in the running shop.
 */
describe("buildFiles", () => {
  const script = "export const oferta = 'Circuito termal';\n".repeat(50);
  let root: string;
  let origin: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "ofertas-build-files-"));
    mkdirSync(path.join(root, "assets"));
    for (const file of ["assets/layout-abc123.js", "favicon.js"]) {
      writeFileSync(path.join(root, file), script);
      writeFileSync(path.join(root, `${file}.br`), brotliCompressSync(script));
      writeFileSync(path.join(root, `${file}.gz`), gzipSync(script));
    }
    const app = express();
    app.use(buildFiles(root));
    app.use((req, res) => {
      res.append("Content-Type", "text/html; charset=utf-8");
      res.status(404).send(`página no encontrada: ${req.url}`);
    });
    ({ origin, close } = await listen(app));
  });
  afterAll(async () => {
    await close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (file: string, acceptEncoding: string) => fetch(`${origin}${file}`, { headers: { "accept-encoding": acceptEncoding } });

  it("sends brotli, gzip or the plain file as the browser asks, each with the file's own type", async () => {
    const types = new Set<string | null>();
    for (const [accept, encoding] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const response = await get("/assets/layout-abc123.js?v=1", accept);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("content-type")).toMatch(/javascript/);
      types.add(response.headers.get("content-type")?.toLowerCase() ?? null); // send writes «UTF-8», Express «utf-8»
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(await response.text()).toBe(script);
    }
    expect(types.size).toBe(1);
  });

  it("caches hashed assets for a year and the other files for an hour", async () => {
    expect((await get("/assets/layout-abc123.js", "br")).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await get("/favicon.js", "br")).headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await get("/favicon.js", "identity")).headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("a compressed file gone since start (the build replaced under the server) reaches the pages untouched", async () => {
    rmSync(path.join(root, "favicon.js.br"));
    rmSync(path.join(root, "favicon.js"));
    const response = await get("/favicon.js?v=2", "br, gzip");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("página no encontrada: /favicon.js?v=2");
  });

  it("pages, with no extension, go straight on", async () => {
    const response = await get("/ofertas/", "br");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBeNull();
  });
});
