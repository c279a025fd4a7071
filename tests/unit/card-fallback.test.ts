import { describe, expect, it } from "vitest";
import { cardInnerHtml, fallbackPictureHtml, nameLines } from "#app/components/card-html";
import type { OfferCardData } from "#app/components/offer-card-data";

const offer = (uuid: string, cover: OfferCardData["cover"] = null): OfferCardData => ({
  uuid,
  title: "Menú para dos",
  region: "Madrid",
  category: "restaurants",
  merchant: "Casa Pepe",
  cover,
  price: { actual_price: "20.00", regular_price: "40.00" },
  soldOut: false,
  rating: null,
});

const ids = Array.from({ length: 7 }, (_, i) => `0d2c${i}a10-1b2c-4d3e-8f40-${String(i).padStart(12, "7")}`);

describe("an offer's fallback picture", () => {
  it("is the same for the same offer and differs between the offers of one page", () => {
    expect(fallbackPictureHtml(ids[0], "Casa Pepe")).toBe(fallbackPictureHtml(ids[0], "Casa Pepe"));
    expect(new Set(ids.map((id) => fallbackPictureHtml(id, "Casa Pepe"))).size).toBe(ids.length);
  });

  it("stands in only when the offer has no picture of its own: a partner's photo comes first", () => {
    expect(cardInnerHtml(offer(ids[0]), false, 2)).toContain('class="card-fallback"');
    const photo = cardInnerHtml(offer(ids[0], { image_url: "/media/a.webp", small_url: null, width: 800, height: 500 }), false, 2);
    expect(photo).toContain('<img src="/media/a.webp"');
    expect(photo).not.toContain("card-fallback");
  });

  it("is decoration: hidden from screen readers, no request, no size of its own", () => {
    const svg = fallbackPictureHtml(ids[1], "Casa Pepe");
    expect(svg).toMatch(/^<svg [^>]*aria-hidden="true"/);
    expect(svg).not.toMatch(/href|url\(/);
  });

  it("shows the merchant's name large, escaped, in lines that fit the picture", () => {
    const svg = fallbackPictureHtml(ids[2], "Termas del Retiro");
    expect(svg).toMatch(/<text [^>]*font-size="(\d+)"[^>]*>.*Termas del.*Retiro/);
    expect(Number(svg.match(/font-size="(\d+)"/)![1])).toBeGreaterThanOrEqual(30);
    expect(cardInnerHtml(offer(ids[0]), false, 2)).toContain(">Casa Pepe</tspan>");

    const tricky = fallbackPictureHtml(ids[3], `Bar <b>"Los 'Amigos'"</b> & Cía`);
    expect(tricky).not.toContain("<b>");
    expect(tricky).toContain("&#60;b&#62;&#34;Los");
    expect(tricky).toContain("&#38; Cía");
    expect(tricky).toMatch(/^<svg [^>]*>(?:<(?:rect|circle) [^>]*\/>)+<text [^>]*>(?:<tspan [^>]*>[^<]*<\/tspan>)+<\/text><\/svg>$/);
  });

  it("keeps a long name to three lines, shorter type for a longer line", () => {
    const lines = nameLines("Centro de Hidroterapia y Bienestar Integral de la Sierra Norte");
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith("…")).toBe(true);
    const size = (name: string) => Number(fallbackPictureHtml(ids[4], name).match(/font-size="(\d+)"/)![1]);
    expect(size("Ola")).toBeGreaterThan(size("Hidroterapiasmadrileñas"));
  });
});
