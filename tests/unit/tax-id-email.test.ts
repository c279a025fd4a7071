import { describe, expect, it } from "vitest";
import { isValidEmail } from "#rules/email";
import { isValidSpanishTaxId, normalizeTaxId } from "#rules/tax-id";

/*
 * Reference values, computed by hand with the official algorithms:
 *
 * DNI/NIF: letter = "TRWAGMYFPDXBNJZSQVHLCKE"[number mod 23]
 *   12345678 mod 23 = 14 → Z          → 12345678Z
 *   00000000 mod 23 = 0  → T          → 00000000T
 *   99999999 mod 23 = 1  → R          → 99999999R
 * NIE: X/Y/Z become 0/1/2, then the DNI rule on the 8 digits
 *   X1234567 → 01234567 mod 23 = 19 → L   → X1234567L
 *   Y1234567 → 11234567 mod 23 = 10 → X   → Y1234567X
 *   Z1234567 → 21234567 mod 23 = 1  → R   → Z1234567R
 * CIF: letter + 7 digits + control. Digits in odd positions (1st, 3rd, 5th, 7th) are doubled and
 * their digits summed; digits in even positions are added as they are; control = (10 − sum mod 10)
 * mod 10, written as a digit or as "JABCDEFGHI"[control].
 *   B 1234567: odd 1,3,5,7 → 2+6+(1+0)+(1+4) = 14; even 2+4+6 = 12; sum 26 → control 4 (letter D)
 *              → B12345674 (S.L., digit form)
 *   A 2801586: odd 2,0,5,6 → 4+0+(1+0)+(1+2) = 8; even 8+1+8 = 17; sum 25 → control 5
 *              → A28015865 (Telefónica, S.A.'s published CIF)
 *   A 5881850: odd 5,8,8,0 → (1+0)+(1+6)+(1+6)+0 = 15; even 8+1+5 = 14; sum 29 → control 1
 *              → A58818501
 *   Q 2818002: odd 2,1,0,2 → 4+2+0+4 = 10; even 8+8+0 = 16; sum 26 → control 4 → letter D
 *              → Q2818002D (public body, letter form)
 *   B 0000000: sum 0 → control 0 → letter J → B00000000 / B0000000J
 */

describe("isValidSpanishTaxId: DNI/NIF", () => {
  it.each(["12345678Z", "00000000T", "99999999R"])("accepts %s", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(true);
  });

  it.each(["12345678A", "12345678T", "00000000R", "99999999Z"])("rejects %s (wrong check letter)", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it.each(["1234567Z", "123456789Z", "12345678", "Z12345678", "1234567ZZ", "ABCDEFGHZ", ""])("rejects malformed %j", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it("normalises lower case, spaces, dots and dashes", () => {
    for (const id of ["12345678z", " 12345678Z ", "12345678-Z", "12.345.678-Z", "12 345 678 z"]) {
      expect(isValidSpanishTaxId(id)).toBe(true);
      expect(normalizeTaxId(id)).toBe("12345678Z");
    }
    // normalising does not turn a wrong letter into a right one
    expect(isValidSpanishTaxId("12.345.678-a")).toBe(false);
  });
});

describe("isValidSpanishTaxId: NIE", () => {
  it.each(["X1234567L", "Y1234567X", "Z1234567R"])("accepts %s", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(true);
  });

  it.each(["X1234567A", "Y1234567L", "Z1234567X"])("rejects %s (wrong check letter)", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it.each(["W1234567L", "X123456L", "X12345678L"])("rejects malformed %s", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it("normalises lower case and separators", () => {
    expect(isValidSpanishTaxId("x1234567l")).toBe(true);
    expect(isValidSpanishTaxId("X-1234567-L")).toBe(true);
    expect(normalizeTaxId(" y-1234567 x")).toBe("Y1234567X");
  });
});

describe("isValidSpanishTaxId: CIF", () => {
  it.each(["B12345674", "A28015865", "A58818501", "Q2818002D", "B00000000"])("accepts %s", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(true);
  });

  it.each([
    ["B12345675", "wrong control digit"],
    ["B12345670", "wrong control digit"],
    ["A28015864", "wrong control digit"],
    ["Q2818002E", "wrong control letter"],
    ["B1234567A", "wrong control letter"],
    ["B0000000A", "wrong control letter"],
    ["I12345674", "I is not an entity letter"],
    ["O12345674", "O is not an entity letter"],
    ["B1234567", "too short"],
    ["B123456745", "too long"],
    ["B1234567K", "K is not a control letter"],
  ])("rejects %s (%s)", (id) => {
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it("normalises lower case, spaces and dashes", () => {
    expect(isValidSpanishTaxId("b-12345674")).toBe(true);
    expect(isValidSpanishTaxId("a 28015865")).toBe(true);
    expect(isValidSpanishTaxId("q2818002d")).toBe(true);
    expect(normalizeTaxId("b-1234.567 4")).toBe("B12345674");
  });
});

describe("isValidEmail (spec 5: a format pattern after trimming)", () => {
  it.each([
    "ana@correo.es",
    "ana.perez@correo.es",
    "ana.perez+ofertas@correo.es",
    "ana_perez-1@sub.dominio.com",
    "ANA@CORREO.ES",
    "a@b.co",
    "info@ofertas.travel",
  ])("accepts %s", (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it("trims before checking", () => {
    expect(isValidEmail("  ana@correo.es  ")).toBe(true);
    expect(isValidEmail("\tana@correo.es\n")).toBe(true);
  });

  it.each([
    "",
    "   ",
    "ana",
    "ana@",
    "@correo.es",
    "ana@correo",
    "ana@correo.",
    "ana@correo.e",
    "ana@.es",
    "ana correo@correo.es",
    "ana@cor reo.es",
    "ana@@correo.es",
    "ana@correo@otro.es",
    "<ana@correo.es>",
    "ana@correo.es, luis@correo.es",
    "ana@correo.123",
  ])("rejects %j", (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it("rejects addresses longer than 254 characters", () => {
    const domain = "@correo.es";
    expect(isValidEmail("a".repeat(254 - domain.length) + domain)).toBe(true);
    expect(isValidEmail("a".repeat(255 - domain.length) + domain)).toBe(false);
  });
});
