import { describe, expect, it } from "vitest";
import { purchaseSignature, unsubscribeSignature, verifyPurchase, verifyUnsubscribe } from "#lib/signatures.server";

const OLD = "secreto-antiguo-0123456789abcdef";
const NEW = "secreto-nuevo-0123456789abcdefgh";

describe("signed mail links", () => {
  it("verify under any listed secret, so rotation keeps old links working", () => {
    const old = unsubscribeSignature([OLD], "Ana@Correo.es");
    expect(verifyUnsubscribe([NEW, OLD], "ana@correo.es", old)).toBe(true);
    expect(verifyUnsubscribe([NEW], "ana@correo.es", old)).toBe(false);
    expect(unsubscribeSignature([NEW, OLD], "ana@correo.es")).not.toBe(old);
  });

  it("refuse another address, a changed signature and another purpose", () => {
    const sig = unsubscribeSignature([NEW], "ana@correo.es");
    expect(verifyUnsubscribe([NEW], "eva@correo.es", sig)).toBe(false);
    expect(verifyUnsubscribe([NEW], "ana@correo.es", sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A"))).toBe(false);
    expect(verifyUnsubscribe([NEW], "ana@correo.es", "")).toBe(false);
    const sale = "6f1c2d1e-8a8b-4c1a-9d3e-1a2b3c4d5e6f";
    expect(verifyPurchase([NEW], sale, purchaseSignature([NEW], sale))).toBe(true);
    expect(verifyPurchase([NEW], sale, unsubscribeSignature([NEW], sale))).toBe(false);
  });
});
