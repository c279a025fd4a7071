import type { Config } from "#platform/config.server";
import type { Executor } from "#api/db/client";
import { mailOrigin } from "#api/mail/context";
import { purchaseOf } from "#api/services/sales/purchase";

/**
 * One coupon's voucher, built exactly like the confirmation mail's attachment (the same builder
 * over the same purchase), narrowed to that coupon.
 */
export async function voucherPdfFor(db: Executor, config: Config, coupon: { code: string; sale_id: string }): Promise<Uint8Array> {
  // pdf-lib and qrcode (~45 MB resident) load with the first voucher asked for.
  const [{ buildVoucherPdf }, purchase] = await Promise.all([import("#api/coupons/voucher-pdf"), purchaseOf(db, coupon.sale_id)]);
  const items = purchase.items.filter((item) => item.coupons.includes(coupon.code)).map((item) => ({ ...item, coupons: [coupon.code] }));
  return buildVoucherPdf({ ...purchase, items }, { origin: mailOrigin(config) });
}
