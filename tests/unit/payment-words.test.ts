import { describe, expect, it } from "vitest";
import { PAYMENT_PROVIDERS, SECURE_PAYMENT_TEXT, paymentMethodsOf, payingWith } from "#rules/payments";

describe("«Revisa y paga»: what the buyer pays with, and why it is safe", () => {
  it("names the provider's ways of paying, Bizum when the terminal has it", () => {
    expect(payingWith("redsys", paymentMethodsOf("redsys", { bizum: true }))).toBe("Tarjeta de crédito o débito, o Bizum");
    expect(payingWith("redsys", paymentMethodsOf("redsys", { bizum: false }))).toBe("Tarjeta de crédito o débito");
    expect(payingWith("paypal", [])).toBe("PayPal o tarjeta");
    expect(payingWith("sandbox", [])).toBe("Tarjeta de pruebas");
  });

  it("says for every provider where the card is typed, and that the shop never keeps it (the sandbox: that nothing is charged)", () => {
    for (const provider of PAYMENT_PROVIDERS) {
      const text = SECURE_PAYMENT_TEXT[provider];
      expect(text, provider).toMatch(provider === "sandbox" ? /no se cobra nada/ : /página segura .* nunca vemos ni guardamos/);
    }
  });
});
