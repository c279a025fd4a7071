import QRCode from "qrcode";

/** A QR code as one SVG path: dark modules as unit squares, a quiet zone of two modules around. */
export type CouponQr = { size: number; path: string };

const QUIET = 2;

/** The QR of a coupon code, the same content as on the voucher PDF, drawn by the server. */
export function couponQr(code: string): CouponQr {
  const qr = QRCode.create(code, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  let path = "";
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (qr.modules.get(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
    }
  }
  return { size: n + QUIET * 2, path };
}

/** Every code of a purchase, by code. */
export function purchaseQrs(items: { coupons: string[] }[]): Record<string, CouponQr> {
  return Object.fromEntries(items.flatMap((i) => i.coupons).map((code) => [code, couponQr(code)]));
}
