// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { regionOptions } from "#app/components/region-form";
import { DEFAULT_REGION, REGIONS } from "#rules/regions";

/** The picker's options as the browser parses them. */
function parse(html: string) {
  const select = document.createElement("select");
  select.innerHTML = html;
  return [...select.options].map((o) => ({
    value: o.value,
    label: o.text,
    selected: o.defaultSelected,
    group: (o.parentElement as HTMLOptGroupElement).label,
  }));
}

describe("regionOptions", () => {
  it("offers España, then the most searched provinces, then all the others, each once", () => {
    const options = parse(regionOptions(""));
    expect(options).toHaveLength(REGIONS.length + 1);
    expect(options[0]).toMatchObject({ value: DEFAULT_REGION.value, label: "España", selected: true });
    expect(options.slice(1, 11).map((o) => o.label)).toEqual([
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
    ]);
    expect(options.slice(1, 11).every((o) => o.group === "Más buscadas")).toBe(true);
    expect(options.slice(11).every((o) => o.group === "Todas las provincias")).toBe(true);
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
  });

  it("marks the visitor's region, and only it", () => {
    const options = parse(regionOptions("Sevilla"));
    expect(options.filter((o) => o.selected).map((o) => o.value)).toEqual(["Sevilla"]);
  });

  it("selects nothing it does not know, and escapes what it is given", () => {
    const html = regionOptions('"><script>');
    expect(html).not.toContain("<script>");
    expect(parse(html).filter((o) => o.selected)).toEqual([]);
  });
});
