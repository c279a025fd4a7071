import { describe, expect, it } from "vitest";
import { CATEGORY_IDS, CATEGORY_LABELS, CATEGORY_MENU, isCategoryId } from "#rules/categories";
import { DEFAULT_REGION, POPULAR_PROVINCE_RANK, PROVINCES, REGIONS, isProvince, regionFromValue } from "#rules/regions";

const POPULAR_IN_RANK_ORDER = [
  "Madrid",
  "Barcelona",
  "Valencia",
  "Sevilla",
  "Alicante",
  "Málaga",
  "Murcia",
  "Cádiz",
  "Santa Cruz de Tenerife",
  "Las Palmas",
];

describe("regions (spec 3)", () => {
  it("has exactly the 50 Spanish provinces, each once", () => {
    expect(PROVINCES).toHaveLength(50);
    expect(new Set(PROVINCES).size).toBe(50);
    expect(REGIONS).toHaveLength(50);
    expect(new Set(REGIONS.map((r) => r.value)).size).toBe(50);
    expect(new Set(REGIONS.map((r) => r.value))).toEqual(new Set(PROVINCES));
  });

  it("includes provinces whose names are easy to get wrong", () => {
    for (const p of ["Álava", "Ávila", "La Coruña", "Islas Baleares", "Guipúzcoa", "Vizcaya", "Lleida", "Girona", "Ourense"]) {
      expect(isProvince(p)).toBe(true);
    }
    // Ceuta and Melilla are autonomous cities, not provinces
    expect(isProvince("Ceuta")).toBe(false);
    expect(isProvince("Melilla")).toBe(false);
  });

  it("every region's label equals its value", () => {
    for (const r of REGIONS) {
      expect(r.label).toBe(r.value);
      expect(r.value).not.toBe("");
    }
  });

  it("lists the ten popular provinces first, in rank order", () => {
    expect(REGIONS.slice(0, 10).map((r) => r.value)).toEqual(POPULAR_IN_RANK_ORDER);
    expect(REGIONS.slice(0, 10).map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Object.keys(POPULAR_PROVINCE_RANK)).toHaveLength(10);
    POPULAR_IN_RANK_ORDER.forEach((p, i) => expect(POPULAR_PROVINCE_RANK[p as keyof typeof POPULAR_PROVINCE_RANK]).toBe(i + 1));
  });

  it("writes PROVINCES in Spanish alphabetical order (the browser sorts nothing)", () => {
    expect([...PROVINCES]).toEqual([...PROVINCES].sort(new Intl.Collator("es").compare));
  });

  it("lists the other forty alphabetically in Spanish collation, without rank", () => {
    const rest = REGIONS.slice(10);
    expect(rest).toHaveLength(40);
    for (const r of rest) expect(r.rank).toBeNull();
    const names = rest.map((r) => r.value);
    expect(names).toEqual([...names].sort(new Intl.Collator("es").compare));
    // Accented initials sort with their base letter, not after "Z" as a code-point sort would do.
    expect(names[0]).toBe("Álava");
    expect(names.indexOf("Ávila")).toBeLessThan(names.indexOf("Badajoz"));
    expect(names.indexOf("Ávila")).toBeGreaterThan(names.indexOf("Asturias"));
    expect(names.at(-1)).toBe("Zaragoza");
  });

  it("sorts Álava before Albacete (á = a, then 'la' < 'lb')", () => {
    const names = REGIONS.slice(10).map((r) => r.value);
    expect(names.slice(0, 3)).toEqual(["Álava", "Albacete", "Almería"]);
  });

  it("the default region is the whole country", () => {
    expect(DEFAULT_REGION).toEqual({ label: "España", value: "" });
  });

  it("regionFromValue returns the province, or the default for anything unknown", () => {
    expect(regionFromValue("Madrid")).toEqual({ label: "Madrid", value: "Madrid" });
    expect(regionFromValue("Santa Cruz de Tenerife")).toEqual({ label: "Santa Cruz de Tenerife", value: "Santa Cruz de Tenerife" });
    for (const v of ["", "madrid", "Atlantis", "Ceuta", null, undefined, 3, {}, ["Madrid"]]) {
      expect(regionFromValue(v)).toEqual(DEFAULT_REGION);
    }
  });
});

describe("categories (spec 2 and 3)", () => {
  it("are the nine spec categories in spec order", () => {
    expect(CATEGORY_IDS).toEqual([
      "leisure",
      "entertainment",
      "restaurants",
      "health_and_beauty",
      "services",
      "family_plans",
      "travel",
      "product",
      "training",
    ]);
  });

  it("the menu starts with 'recommended' linking home, then every category's page", () => {
    expect(CATEGORY_MENU).toHaveLength(10);
    expect(CATEGORY_MENU[0]).toMatchObject({ id: "recommended", href: "/" });
    expect(CATEGORY_MENU.slice(1).map((c) => c.id)).toEqual([...CATEGORY_IDS]);
    for (const c of CATEGORY_MENU.slice(1)) expect(c.href).toBe(`/ofertas/category/${c.id}/`);
  });

  it("every menu entry has a Spanish label", () => {
    for (const c of CATEGORY_MENU) {
      expect(c.label).toBe(CATEGORY_LABELS[c.id]);
      expect(c.label.trim()).not.toBe("");
    }
    expect(new Set(CATEGORY_MENU.map((c) => c.label)).size).toBe(10);
    expect(CATEGORY_LABELS.restaurants).toBe("Restaurantes");
  });

  it("'recommended' is not a category page", () => {
    expect(isCategoryId("recommended")).toBe(false);
    expect(isCategoryId("leisure")).toBe(true);
    expect(isCategoryId("Leisure")).toBe(false);
    expect(isCategoryId(undefined)).toBe(false);
  });
});
