// @vitest-environment node
import { describe, expect, it } from "vitest";
import { FORM_MESSAGES, readForm } from "#app/forms/form.server";
import { safeRedirect } from "#app/forms/redirect";
import { findUnstorableText, isStorableText } from "#rules/text";

const post = (body: BodyInit | null, contentType?: string, extra: Record<string, string> = {}) =>
  new Request("http://localhost/cart", {
    method: "POST",
    headers: { ...(contentType ? { "content-type": contentType } : {}), ...extra },
    body,
  });

async function refusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  return { status: response.status, text: await response.text(), cache: response.headers.get("cache-control") };
}

describe("readForm: the one form reader of every storefront action", () => {
  it("reads urlencoded and multipart forms", async () => {
    const a = await readForm(post("intent=add&redirectTo=%2F", "application/x-www-form-urlencoded"));
    expect(a.get("intent")).toBe("add");
    const fd = new FormData();
    fd.set("region", "Madrid");
    const b = await readForm(new Request("http://localhost/region", { method: "POST", body: fd }));
    expect(b.get("region")).toBe("Madrid");
  });

  it("refuses a missing or non-form content type with a Spanish 400 nobody caches", async () => {
    for (const type of [undefined, "application/json", "text/plain", "multipart/mixed"]) {
      const r = await refusal(readForm(post('{"intent":"clear"}', type)));
      expect(r).toEqual({ status: 400, text: FORM_MESSAGES.contentType, cache: "no-store" });
    }
  });

  it("refuses a malformed multipart body (no boundary, wrong boundary, truncated)", async () => {
    const bodies: [string, string][] = [
      ["multipart/form-data", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--"],
      ["multipart/form-data; boundary=zzz", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--"],
      ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1'],
    ];
    for (const [type, body] of bodies) {
      const r = await refusal(readForm(post(body, type)));
      expect(r.status).toBe(400);
      expect(r.text).toBe(FORM_MESSAGES.malformed);
    }
  });

  it("refuses NUL and lone surrogates in names, values and file names", async () => {
    const r1 = await refusal(readForm(post("promo_code=AB%00C", "application/x-www-form-urlencoded")));
    expect(r1).toMatchObject({ status: 400, text: FORM_MESSAGES.text });
    const r2 = await refusal(readForm(post("a%00=1", "application/x-www-form-urlencoded")));
    expect(r2.status).toBe(400);
    const body = `--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\u0000y\r\n--b--\r\n`;
    const r3 = await refusal(readForm(post(body, "multipart/form-data; boundary=b")));
    expect(r3).toMatchObject({ status: 400, text: FORM_MESSAGES.text });
  });

  it("refuses a body over the limit, declared or streamed", async () => {
    const big = "a=" + "x".repeat(70 * 1024);
    expect((await refusal(readForm(post(big, "application/x-www-form-urlencoded")))).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 80; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
        c.close();
      },
    });
    const chunked = new Request("http://localhost/cart", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect((await refusal(readForm(chunked))).status).toBe(413);
  });
});

describe("text that can be stored", () => {
  it("tells NUL and lone surrogates from ordinary and astral text", () => {
    expect(isStorableText("Paella para 2 😋 ñ €")).toBe(true);
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("a\uD83Db")).toBe(false);
    expect(isStorableText("\uDE0Bb")).toBe(false);
    expect(findUnstorableText({ items: [{ slot_id: "ok" }, { promo_codes: ["A", "B\uDFFF"] }] })).toBe("B\uDFFF");
    expect(findUnstorableText({ ["k\u0000"]: 1 })).toBe("k\u0000");
    expect(findUnstorableText({ a: [1, true, null, "x"] })).toBeNull();
  });
});

describe("safeRedirect keeps the Location header valid", () => {
  it("percent-encodes non-Latin-1 paths and refuses lone surrogates", () => {
    expect(safeRedirect("/€")).toBe("/%E2%82%AC");
    expect(safeRedirect("/ofertas/😋?q=ñ")).toBe("/ofertas/%F0%9F%98%8B?q=%C3%B1");
    expect(safeRedirect("/a\u2028b")).toBe("/a%E2%80%A8b");
    expect(safeRedirect("/a\uD800")).toBe("/");
    expect(() => new Headers({ Location: safeRedirect("/€ 😋\u2028") })).not.toThrow();
  });
});
