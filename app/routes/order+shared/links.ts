/**
 * A purchase's signed links, as in its confirmation mail: the coupons page and the PDF. The
 * signature (HMAC of the sale id) is the only key; the bare sale id opens nothing.
 */
export function signedCouponLinks(saleId: string, sig: string) {
  const query = new URLSearchParams({ sig });
  return {
    page: `/order/coupons?${new URLSearchParams({ sale: saleId, sig })}`,
    pdf: `/api/v0/sales/purchase/${saleId}/vouchers.pdf?${query}`,
  };
}
