import { describe, expect, it } from "vitest";
import { z } from "zod";
import { countOf, plural } from "#rules/plurals";
import { ticketsInWords, ticketsLeft } from "#rules/text";
import { soldText } from "#app/components/trust";
import "#rules/zod-es";

/** Every count the shop shows agrees with its number: the singular for one, the plural for 0, 2, 5. */
describe("plurals", () => {
  it("take the singular for exactly one and the plural for every other count", () => {
    expect([0, 1, 2, 5].map((n) => plural(n, "queda", "quedan"))).toEqual(["quedan", "queda", "quedan", "quedan"]);
    expect(plural(-1, "día", "días")).toBe("día");
  });

  it("write the count as the shop writes numbers, with its noun", () => {
    expect([0, 1, 2, 5].map((n) => countOf(n, "oferta", "ofertas"))).toEqual(["0 ofertas", "1 oferta", "2 ofertas", "5 ofertas"]);
    expect(countOf(12345, "oferta", "ofertas")).toBe("12.345 ofertas");
    expect(countOf(1234, "cupón", "cupones")).toBe("1234 cupones");
  });

  it("are the ones the shop's texts use", () => {
    expect([0, 1, 2, 5].map(ticketsInWords)).toEqual(["0 entradas", "1 entrada", "2 entradas", "5 entradas"]);
    expect([0, 1, 2, 5].map(ticketsLeft)).toEqual([
      "Solo quedan 0 entradas",
      "Solo queda 1 entrada",
      "Solo quedan 2 entradas",
      "Solo quedan 5 entradas",
    ]);
    expect([0, 1, 2, 5].map(soldText)).toEqual(["0 compradas", "1 comprada", "2 compradas", "5 compradas"]);
    const tooShort = (min: number) => z.string().min(min).safeParse("").error?.issues[0].message;
    expect(tooShort(1)).toBe("Como mínimo 1 carácter.");
    expect(tooShort(2)).toBe("Como mínimo 2 caracteres.");
  });
});
