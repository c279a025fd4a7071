import type { Config } from "#platform/config.server";
import type { Executor } from "#api/db/client";
import { mailOrigin } from "#api/mail/context";
import { purchaseOf } from "#api/services/sales/purchase";

/**
 * One coupon's voucher, built exactly like the confirmation mail's attachment (the same builder
 * over the same purchase), only that coupon's page: numbered as in the whole order.
 */
export async function voucherPdfFor(db: Executor, config: Config, coupon: { code: string; sale_id: string }): Promise<Uint8Array> {
  // pdf-lib and qrcode (~45 MB resident) load with the first voucher asked for.
  const [{ buildVoucherPdf }, purchase] = await Promise.all([import("#api/coupons/voucher-pdf"), purchaseOf(db, coupon.sale_id)]);
  return buildVoucherPdf(purchase, { origin: mailOrigin(config), only: coupon.code });
}
