import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipWanted, gzipWhole, keptGzip, utf8 } from "#platform/gzip.server";

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
  it("leaves small bodies and clients without gzip alone", () => {
    expect(gzipWanted("gzip", "<p>corto</p>")).toBe(false);
    expect(gzipWanted("br", page)).toBe(false);
    expect(gzipWanted("gzip", page)).toBe(true);
  });
});

describe("keptGzip", () => {
  const listing = (stock: number) =>
    Buffer.from(JSON.stringify({ count: 2, results: [{ title: "Circuito termal para dos", available: stock }] }).repeat(60));
  it("deflates a body sent again under its key only once, and a body that changed anew", () => {
    const first = keptGzip("/api/v0/public/offers/", listing(180));
    // Equal bytes built apart (as each request's are) get the very gzip sent before.
    expect(keptGzip("/api/v0/public/offers/", listing(180))).toBe(first);
    const changed = keptGzip("/api/v0/public/offers/", listing(179));
    expect(changed.gzip).not.toBe(first.gzip);
    expect(gunzipSync(changed.gzip).equals(listing(179))).toBe(true);
    // What was worked out from the old gzip (its ETag) goes with it.
    first.etag = 'W/"viejo"';
    expect(keptGzip("/api/v0/public/offers/", listing(180)).etag).toBeUndefined();
  });
  it("never hands out another key's gzip, nor one for other bytes under the same key", () => {
    const accented = Buffer.from("Café con leche · ".repeat(100));
    const spelled = Buffer.from(accented.toString("latin1")); // "CafÃ© con leche Â· …", as UTF-8
    expect(gunzipSync(keptGzip("/a", accented).gzip).equals(accented)).toBe(true);
    expect(gunzipSync(keptGzip("/b", spelled).gzip).equals(spelled)).toBe(true);
    expect(gunzipSync(keptGzip("/a", spelled).gzip).equals(spelled)).toBe(true);
    expect(gunzipSync(keptGzip("/a", accented).gzip).equals(accented)).toBe(true);
  });
  it("keeps the gzips of a bounded number of keys", () => {
    const body = Buffer.from(`{"page":1}`.padEnd(2000, " "));
    const first = keptGzip("/page/0", body);
    for (let n = 1; n <= 32; n++) keptGzip(`/page/${n}`, body);
    const again = keptGzip("/page/0", body);
    expect(again).not.toBe(first);
    expect(again.gzip.equals(first.gzip)).toBe(true);
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
