export const PAYMENT_PROVIDERS = ["sandbox", "paypal", "rapyd", "allpay"] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** PayPal is a wallet: it always needs the buyer's full name (spec section 5). */
export const isWalletProvider = (name: PaymentProviderName) => name === "paypal";

/** hosted: the provider's own payment page; redirect: the buyer is sent to the provider's site. */
export const PAYMENT_FLOWS = ["hosted", "redirect"] as const;
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number];

export const PAYMENT_FLOW_LABELS: Record<PaymentFlow, string> = {
  hosted: "Página de pago integrada",
  redirect: "Redirección al proveedor",
};

/**
 * How a buyer pays with each provider, as the trust line says it («Pago seguro · …»). The sandbox
 * says plainly that it charges nothing.
 */
export const PAYMENT_METHODS_TEXT: Record<PaymentProviderName, string> = {
  sandbox: "Entorno de pruebas: no se cobra nada",
  paypal: "PayPal o tarjeta",
  rapyd: "Tarjeta de crédito o débito",
  allpay: "Tarjeta de crédito o débito",
};
