export const PAYMENT_PROVIDERS = ["sandbox", "paypal", "rapyd", "allpay"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** PayPal is a wallet: it always needs the buyer's full name (spec section 5). */
export const isWalletProvider = (name: PaymentProviderName) => name === "paypal";
