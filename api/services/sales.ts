/**
 * Sales, from a validated cart to a paid purchase, one flow a file under sales/:
 * validate (prices and problems) → create (reserve and open the payment) → capture (paid once)
 * or release (tickets back); the sweep expires what nobody paid; refunds lists what is owed.
 * Shared steps over stock live in sales/stock.ts; what a buyer sees of a sale in sales/purchase.ts.
 */
export { checkPromoCode, countUnknownPromoCodes, promoCodeAnswer } from "./sales/promo-codes";
export { validateOrder } from "./sales/validate";
export { createSale, TOO_MANY_UNPAID_FROM_ADDRESS, type Buyer, type PaymentUrls } from "./sales/create";
export { captureSale, findTransaction, type CaptureOptions } from "./sales/capture";
export { releaseSale } from "./sales/release";
export { purgeStaleCheckoutData, startReservationSweep, sweepExpiredReservations } from "./sales/sweep";
export { refundRequiredSales } from "./sales/refunds";
export { purchaseOf } from "./sales/purchase";
export { couponCode } from "./sales/coupon-code";
