import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ZXING_WASM_SHA256 } from "barcode-detector/ponyfill";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { detectVoucherCode, qrDetector, type QrDetector } from "#app/routes/socios._index/detect-voucher-code";
import { formatCouponCode } from "#rules/coupons";
import { voucherQrGray } from "#tests/support/voucher-qr";

/** The wasm file the build serves (its `?url` import resolves to this same package file). */
const wasmPath = createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm");

/** The browser's ImageData, which Node lacks: RGBA pixels and their size. */
class NodeImageData {
  colorSpace = "srgb";
  constructor(
    public data: Uint8ClampedArray,
    public width: number,
    public height: number,
  ) {}
}

/** A voucher's QR as a camera frame's pixels. */
function qrImage(code: string, options?: Parameters<typeof voucherQrGray>[1]): ImageData {
  const { width, height, pixels } = voucherQrGray(code, options);
  const data = new Uint8ClampedArray(width * height * 4);
  pixels.forEach((v, i) => data.set([v, v, v, 255], i * 4));
  return new NodeImageData(data, width, height) as unknown as ImageData;
}

describe("reading a voucher's QR at the till", () => {
  let detector: Promise<QrDetector>;
  beforeAll(async () => {
    // Browser classes the polyfill reads frames as and reports where a code sits with.
    vi.stubGlobal("ImageData", NodeImageData);
    vi.stubGlobal(
      "DOMRectReadOnly",
      class {
        constructor(
          public x: number,
          public y: number,
          public width: number,
          public height: number,
        ) {}
      },
    );
    const bytes = await readFile(wasmPath);
    detector = qrDetector({ polyfill: true, wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  });

  it("serves the wasm the polyfill was built for", async () => {
    // zxing-wasm is pinned beside barcode-detector for its file; a mismatch would fail on every phone.
    expect(
      createHash("sha256")
        .update(await readFile(wasmPath))
        .digest("hex"),
    ).toBe(ZXING_WASM_SHA256);
  });

  it("decodes the PDF's QR to the coupon's code", async () => {
    const code = formatCouponCode("K7QM3XPA9RTW");
    await expect(detectVoucherCode(qrImage(code), detector)).resolves.toBe(code);
  });

  it("finds the QR in a camera-sized frame, small and off to one side of the white", async () => {
    const code = formatCouponCode("ZX2C4V6B8NMQ");
    await expect(detectVoucherCode(qrImage(code, { scale: 3, width: 640, height: 480 }), detector)).resolves.toBe(code);
  });

  it("reads a QR that is not one of our codes as nothing, and an empty frame as nothing", async () => {
    await expect(detectVoucherCode(qrImage("https://example.com/otra-cosa"), detector)).resolves.toBeNull();
    const blank = qrImage("X", { width: 200, height: 200 });
    blank.data.fill(255);
    await expect(detectVoucherCode(blank, detector)).resolves.toBeNull();
  });
});
