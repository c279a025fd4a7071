export const PAYMENT_PROVIDERS = ["sandbox", "paypal", "rapyd", "allpay", "redsys"] as const;
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
 * The ways of paying a buyer can choose between at checkout, where the provider offers a choice
 * (Redsys: a card, or Bizum when the shop's terminal has it). Other providers offer none: their
 * own page shows what they take.
 */
export const PAYMENT_METHODS = ["card", "bizum"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The checkout button of each way of paying. */
export const PAYMENT_METHOD_BUTTONS: Record<PaymentMethod, string> = {
  card: "Pagar con tarjeta",
  bizum: "Pagar con Bizum",
};

/** What the current provider lets the buyer choose: empty when it chooses on its own page. */
export function paymentMethodsOf(provider: PaymentProviderName, options: { bizum: boolean }): PaymentMethod[] {
  if (provider !== "redsys") return [];
  return options.bizum ? ["card", "bizum"] : ["card"];
}

/**
 * How a buyer pays with each provider, as the trust line says it («Pago seguro · …»). The sandbox
 * says plainly that it charges nothing.
 */
export const PAYMENT_METHODS_TEXT: Record<PaymentProviderName, string> = {
  sandbox: "Entorno de pruebas: no se cobra nada",
  paypal: "PayPal o tarjeta",
  rapyd: "Tarjeta de crédito o débito",
  allpay: "Tarjeta de crédito o débito",
  redsys: "Tarjeta de crédito o débito",
};

/** The trust line's words for the provider and the ways of paying it offers here. */
export function paymentMethodsText(provider: PaymentProviderName, methods: readonly PaymentMethod[]): string {
  return methods.includes("bizum") ? "Tarjeta de crédito o débito, o Bizum" : PAYMENT_METHODS_TEXT[provider];
}

/** The review step's «Forma de pago»: what the buyer will pay with (the sandbox takes a pretend card). */
export function payingWith(provider: PaymentProviderName, methods: readonly PaymentMethod[]): string {
  return provider === "sandbox" ? "Tarjeta de pruebas" : paymentMethodsText(provider, methods);
}

/**
 * «Pago seguro» on the review step, in a plain line: why it is safe to go on. The buyer types
 * their card on the provider's own page, never on the shop's.
 */
export const SECURE_PAYMENT_TEXT: Record<PaymentProviderName, string> = {
  sandbox: "Pasarela de pruebas: no se cobra nada ni se piden datos de tarjeta.",
  paypal: "Pagas en la página segura de PayPal: nunca vemos ni guardamos tus datos de pago.",
  rapyd: "Pagas en la página segura de Rapyd, cifrada: nunca vemos ni guardamos los datos de tu tarjeta.",
  allpay: "Pagas en la página segura de Allpay, cifrada: nunca vemos ni guardamos los datos de tu tarjeta.",
  redsys: "Pagas en la página segura de tu banco (Redsys): nunca vemos ni guardamos los datos de tu tarjeta.",
};
