import { describe, expect, it } from "vitest";
import {
  openLink,
  purchaseSignature,
  sealLink,
  unsubscribeSignature,
  verifyPurchase,
  verifyUnsubscribe,
} from "#platform/signatures.server";

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

describe("link tokens", () => {
  const offer = "6F1C2D1E-8A8B-4C1A-9D3E-1A2B3C4D5E6F";

  it("open to their subject under any listed secret, and show nothing of the address", () => {
    const token = sealLink([OLD], "feedback", { email: " Ana.Perez@Correo.es ", offer });
    expect(openLink([NEW, OLD], "feedback", token)).toEqual({ email: "ana.perez@correo.es", offer: offer.toLowerCase() });
    expect(openLink([NEW], "feedback", token)).toBeNull();
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = Buffer.from(token, "base64url").toString("latin1");
    expect(token).not.toMatch(/@|%40/);
    for (const part of ["ana.perez", "correo.es", "6f1c2d1e"]) {
      expect(token.toLowerCase()).not.toContain(part);
      expect(decoded.toLowerCase()).not.toContain(part);
    }
    // A fresh token each time: two mails to one address cannot be told to be the same person's.
    expect(sealLink([NEW], "unsubscribe", { email: "ana@correo.es" })).not.toBe(sealLink([NEW], "unsubscribe", { email: "ana@correo.es" }));
  });

  it("serve one purpose only, and refuse any change", () => {
    const unsubscribe = sealLink([NEW], "unsubscribe", { email: "ana@correo.es" });
    expect(openLink([NEW], "unsubscribe", unsubscribe)).toEqual({ email: "ana@correo.es" });
    for (const purpose of ["feedback", "activation", "password-reset"] as const) expect(openLink([NEW], purpose, unsubscribe)).toBeNull();
    const raw = Buffer.from(unsubscribe, "base64url");
    for (const at of [0, 1, 14, raw.length - 1]) {
      const changed = Buffer.from(raw);
      changed[at] ^= 1;
      expect(openLink([NEW], "unsubscribe", changed.toString("base64url")), `byte ${at}`).toBeNull();
    }
    for (const bad of ["", "x", "%%%", unsubscribe.slice(0, 20), `${unsubscribe}A`, "A".repeat(5000), null, 42]) {
      expect(openLink([NEW], "unsubscribe", bad)).toBeNull();
    }
  });
});
