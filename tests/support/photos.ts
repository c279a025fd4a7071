import sharp from "sharp";

/** A photo as a phone takes it: noise does not compress, so 2400×1600 at quality 92 weighs 2–3 MB. */
export function phonePhoto(width = 2400, height = 1600, quality = 92): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .jpeg({ quality })
    .toBuffer();
}
