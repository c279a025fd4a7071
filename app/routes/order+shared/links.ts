/**
 * A purchase's signed links, as in its confirmation mail: the coupons page and the PDF. The
 * signature (HMAC of the sale id) is the only key; the bare sale id opens nothing. Both are the
 * storefront's own addresses, the ones the offline worker keeps (app/offline/keep.ts).
 */
export function signedCouponLinks(saleId: string, sig: string, gift?: string) {
  const query = new URLSearchParams(gift ? { sale: saleId, sig, gift } : { sale: saleId, sig });
  return { page: `/order/coupons?${query}`, pdf: `/order/coupon-pdf?${query}` };
}
