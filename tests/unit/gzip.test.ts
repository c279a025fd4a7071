import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipWhole, utf8 } from "#lib/gzip.server";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
    ["*", true],
    ["x-gzip", true],
    ["GZIP", true],
    [null, false],
    ["", false],
    ["identity", false],
    ["br", false],
    ["gzip;q=0", false],
    ["gzip;q=0, identity", false],
    ["*;q=0", false],
    ["gzip;q=0.5, identity;q=1", false],
    ["br, *;q=0", false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("gzipWhole", () => {
  const page = "<p>oferta</p>".repeat(200);
  it("gzips a body the client takes gzip for, and the bytes come back the same", () => {
    const whole = gzipWhole("gzip", page);
    expect(whole.gzip).toBe(true);
    expect(gunzipSync(whole.body as Buffer).toString()).toBe(page);
  });
  it("deflates a body kept and sent again only once, and a body that changed anew", () => {
    const listing = (stock: number) => Buffer.from(JSON.stringify({ count: 2, results: [{ title: "Circuito termal para dos", available: stock }] }).repeat(60));
    const first = gzipWhole("gzip", listing(180), true).body;
    // Equal bytes built apart (as each request's are) get the very gzip sent before.
    expect(gzipWhole("gzip", listing(180), true).body).toBe(first);
    const changed = gzipWhole("gzip", listing(179), true).body;
    expect(changed).not.toBe(first);
    expect(gunzipSync(changed).toString()).toBe(listing(179).toString());
    // Bodies not asked to be kept (pages, with their nonces) are deflated each time.
    expect(gzipWhole("gzip", listing(180)).body).not.toBe(first);
  });
  it("keeps by the bytes: a text whose characters spell another text's UTF-8 is a body of its own", () => {
    const accented = Buffer.from("Café con leche · ".repeat(100));
    const spelled = accented.toString("latin1"); // "CafÃ© con leche Â· …"
    const fromBytes = gzipWhole("gzip", accented, true).body;
    const fromText = gzipWhole("gzip", spelled, true).body;
    expect(gunzipSync(fromBytes).equals(accented)).toBe(true);
    expect(gunzipSync(fromText).toString()).toBe(spelled);
  });
  it("keeps the gzips of a bounded number of bodies", () => {
    const body = (n: number) => Buffer.from(`{"page":${n}}`.padEnd(2000, " "));
    const first = gzipWhole("gzip", body(0), true).body;
    for (let n = 1; n <= 32; n++) gzipWhole("gzip", body(n), true);
    const again = gzipWhole("gzip", body(0), true).body;
    expect(again).not.toBe(first);
    expect(again.equals(first)).toBe(true);
  });
  it("leaves small bodies and clients without gzip alone", () => {
    expect(gzipWhole("gzip", "<p>corto</p>")).toEqual({ body: "<p>corto</p>", gzip: false });
    expect(gzipWhole("br", page)).toEqual({ body: page, gzip: false });
  });
});

describe("utf8", () => {
  it("writes the pieces in order, multi-byte characters whole, as Buffer.from of their join would", () => {
    const page = "<p>Circuito termal · 59,90 € → ★ 4,7…</p>".repeat(300);
    const parts = ["<!DOCTYPE html>", page.slice(0, 5000), "€", page.slice(5000), "", "<script></script>"];
    const bytes = utf8(parts);
    expect(bytes.equals(Buffer.from(parts.join("")))).toBe(true);
    expect(bytes.toString("utf8")).toBe(parts.join(""));
  });
  it("copies pieces already in UTF-8 as they are, between pieces of text", () => {
    const cards = Buffer.from('[{"title":"Paella en la Barceloneta · 38 €"}]');
    const bytes = utf8(['{"count":1,"results":', new Uint8Array(cards), "}"]);
    expect(JSON.parse(bytes.toString())).toEqual({ count: 1, results: [{ title: "Paella en la Barceloneta · 38 €" }] });
  });
  it("gzips as a body: the same bytes come back", () => {
    const bytes = utf8(["<p>", "oferta ".repeat(500), "€</p>"]);
    const whole = gzipWhole("gzip", bytes);
    expect(whole.gzip).toBe(true);
    expect(gunzipSync(whole.body).equals(bytes)).toBe(true);
    expect(gzipWhole("br", bytes)).toEqual({ body: bytes, gzip: false });
  });
});
