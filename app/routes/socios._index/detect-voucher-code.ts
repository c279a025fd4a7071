import { normalizeCouponCode } from "#rules/coupons";

/** What a barcode detector answers: the standard BarcodeDetector's shape, which the polyfill copies. */
export type QrDetector = { detect: (source: ImageBitmapSource) => Promise<{ rawValue: string }[]> };
type NativeDetector = {
  new (options: { formats: string[] }): QrDetector;
  getSupportedFormats?: () => Promise<string[]>;
};

/** The browser's own BarcodeDetector when it reads QR codes (not in TypeScript's DOM types yet). */
async function nativeDetector(): Promise<QrDetector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetector }).BarcodeDetector;
  if (!Native) return null;
  const formats = (await Native.getSupportedFormats?.().catch(() => [])) ?? [];
  return formats.includes("qr_code") ? new Native({ formats: ["qr_code"] }) : null;
}

/**
 * ZXing in WebAssembly (barcode-detector's ponyfill) for browsers without a detector: iPhones,
 * Firefox, desktop Chromium. Imported only here, when the camera opens, so it is a chunk of its own
 * and never in a shopper's page. Its .wasm is served from our own build, not the library's CDN.
 * `wasmBinary`: the file's bytes, where there is no server to fetch it from (the unit tests).
 */
async function zxingDetector({ wasmBinary }: { wasmBinary?: ArrayBuffer } = {}): Promise<QrDetector> {
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import("barcode-detector/ponyfill"),
    import("zxing-wasm/reader/zxing_reader.wasm?url"),
  ]);
  prepareZXingModule({
    overrides: wasmBinary
      ? { wasmBinary }
      : { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
  });
  return new BarcodeDetector({ formats: ["qr_code"] });
}

let shared: Promise<QrDetector> | null = null;

/**
 * The till's QR reader: the standard one where the browser has it, else the polyfill. Made once a
 * page; `polyfill` (tests) asks for ZXing even where the browser has its own.
 */
export function qrDetector(options: { polyfill?: boolean; wasmBinary?: ArrayBuffer } = {}): Promise<QrDetector> {
  if (options.polyfill) return zxingDetector(options);
  shared ??= nativeDetector().then((native) => native ?? zxingDetector());
  // A failed load (the network dropped) is tried again on the next scan.
  shared.catch(() => (shared = null));
  return shared;
}

/** Whether the browser can show a camera at all; the detector comes with it, native or not. */
export const hasCamera = () => typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";

/**
 * The coupon code in a picture (a camera frame, an image), or null: the one path the till and the
 * tests read a voucher's QR through. A QR that is not one of our codes reads as nothing.
 */
export async function detectVoucherCode(source: ImageBitmapSource, detector: Promise<QrDetector> = qrDetector()): Promise<string | null> {
  const found = await (await detector).detect(source);
  return found.map((f) => normalizeCouponCode(f.rawValue)).find((code): code is string => !!code) ?? null;
}
