import { describe, expect, it } from "vitest";
import { distanceKm, formatDistance, PROVINCE_CENTRES, provinceOfPlace } from "#rules/places";
import { priceBound } from "#rules/listing-order";
import { PROVINCES } from "#rules/regions";

describe("«Cerca de mí» without the browser's location", () => {
  it("a postcode names its province by its first two digits", () => {
    expect(provinceOfPlace("28013")).toBe("Madrid");
    expect(provinceOfPlace(" 08001 ")).toBe("Barcelona");
    expect(provinceOfPlace("41001")).toBe("Sevilla");
    expect(provinceOfPlace("15001")).toBe("La Coruña");
    expect(provinceOfPlace("50001")).toBe("Zaragoza");
    expect(provinceOfPlace("51001")).toBeNull(); // Ceuta: not one of the shop's provinces
    expect(provinceOfPlace("2801")).toBeNull();
  });

  it("a province's name, in any case and with or without accents", () => {
    expect(provinceOfPlace("sevilla")).toBe("Sevilla");
    expect(provinceOfPlace("MALAGA")).toBe("Málaga");
    expect(provinceOfPlace("A Coruña")).toBe("La Coruña");
    expect(provinceOfPlace("Atlántida")).toBeNull();
  });

  it("every province has a centre inside Spain", () => {
    for (const p of PROVINCES) {
      const c = PROVINCE_CENTRES[p];
      expect(c.latitude).toBeGreaterThan(27);
      expect(c.latitude).toBeLessThan(44);
    }
  });

  it("distances as a card says them", () => {
    expect(Math.round(distanceKm(PROVINCE_CENTRES.Madrid, PROVINCE_CENTRES.Barcelona))).toBeGreaterThan(480);
    expect(Math.round(distanceKm(PROVINCE_CENTRES.Madrid, PROVINCE_CENTRES.Barcelona))).toBeLessThan(520);
    expect(formatDistance(0.85)).toBe("a 850 m");
    expect(formatDistance(3.24)).toBe("a 3,2 km");
    expect(formatDistance(120.4)).toBe("a 120 km");
    expect(formatDistance(1234)).toBe("a 1234 km");
  });
});

describe("price range bounds", () => {
  it("whole euros, blank for none, a Spanish message otherwise", () => {
    expect(priceBound("")).toBeNull();
    expect(priceBound("25")).toBe(25);
    expect(priceBound("25 €")).toBe(25);
    expect(priceBound("2,5")).toEqual({ error: "El precio debe ser un número entero de euros." });
    expect(priceBound("999999")).toEqual({ error: "El precio debe estar entre 0 y 100000 €." });
  });
});
