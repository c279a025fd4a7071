import { voucherQr } from "#api/coupons/voucher-pdf";

/**
 * A voucher's QR as the PDF draws it (the same modules and quiet zone), rasterised: one byte a
 * pixel, 0 black and 255 white, `scale` pixels a module, centred on a white `width` × `height`.
 */
export function voucherQrGray(code: string, { scale = 6, width, height }: { scale?: number; width?: number; height?: number } = {}) {
  const { n, quiet, dark } = voucherQr(code);
  const side = (n + quiet * 2) * scale;
  const w = width ?? side;
  const h = height ?? side;
  if (w < side || h < side) throw new Error(`a ${side} px QR does not fit in ${w} × ${h}`);
  const left = Math.floor((w - side) / 2);
  const top = Math.floor((h - side) / 2);
  const pixels = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - quiet;
      const col = Math.floor(x / scale) - quiet;
      if (row >= 0 && col >= 0 && row < n && col < n && dark(row, col)) pixels[(top + y) * w + left + x] = 0;
    }
  }
  return { width: w, height: h, pixels };
}

/**
 * The QR as a Y4M video (YUV4MPEG2: a text header, then each frame's Y plane and its quarter-size U
 * and V planes), what Chromium's --use-file-for-fake-video-capture plays as the camera, looped.
 */
export function voucherQrY4m(code: string, { width = 640, height = 480, frames = 5 } = {}): Buffer {
  const { pixels } = voucherQrGray(code, { width, height });
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), Buffer.from(pixels), chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}
