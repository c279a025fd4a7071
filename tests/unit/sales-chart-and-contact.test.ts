import { describe, expect, it } from "vitest";
import { chartDays, CHART_MAX_DAYS } from "#app/routes/socios.ventas/sales-chart";
import { bookingLines, contactLines, telHref, websiteHref, websiteLabel } from "#rules/merchant-contact";

describe("«Ventas»' chart days", () => {
  it("fills every day of the chosen period with zeros, keeping the days with facts", () => {
    const days = chartDays([{ day: "2026-11-03", sold: 2, redeemed: 1 }], { from: "2026-11-01", to: "2026-11-05", today: "2026-11-28" });
    expect(days.map((d) => d.day)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"]);
    expect(days[2]).toEqual({ day: "2026-11-03", sold: 2, redeemed: 1 });
    expect(days.reduce((n, d) => n + d.sold + d.redeemed, 0)).toBe(3);
  });

  it("without dates, runs from the first fact (at least 30 days) to today, across a clock change", () => {
    expect(chartDays([], { today: "2026-11-28" })).toHaveLength(30);
    const days = chartDays([{ day: "2026-10-01", sold: 1, redeemed: 0 }], { today: "2026-11-28" });
    expect(days[0].day).toBe("2026-10-01");
    expect(days.at(-1)!.day).toBe("2026-11-28");
    expect(days).toHaveLength(59);
  });

  it("draws at most a year of days: the last ones", () => {
    const days = chartDays([], { from: "2020-01-01", to: "2026-11-28", today: "2026-11-28" });
    expect(days).toHaveLength(CHART_MAX_DAYS);
    expect(days.at(-1)!.day).toBe("2026-11-28");
  });
});

describe("the merchant's contact", () => {
  it("dials, writes and opens links a phone acts on", () => {
    expect(telHref("+34 915 738 214")).toBe("tel:+34915738214");
    expect(telHref("91 573 82 14")).toBe("tel:915738214");
    expect(websiteHref("www.cafeolmo.es")).toBe("https://www.cafeolmo.es");
    expect(websiteHref("http://www.cafeolmo.es/")).toBe("https://www.cafeolmo.es/");
    expect(websiteLabel("https://www.cafeolmo.es/")).toBe("www.cafeolmo.es");
  });

  it("takes the booking lines from the conditions, and prints only what the partner gave", () => {
    expect(bookingLines("Reserva previa por teléfono\nMayores de 16 años\n  Imprescindible reservar  ")).toEqual([
      "Reserva previa por teléfono",
      "Imprescindible reservar",
    ]);
    expect(contactLines({ phone: "+34 910 284 617", email: null, website: "https://www.cafeolmo.es" })).toEqual([
      "Teléfono: +34 910 284 617",
      "Web: www.cafeolmo.es",
    ]);
  });
});
