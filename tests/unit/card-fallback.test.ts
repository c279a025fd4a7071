import { describe, expect, it } from "vitest";
import { cardInnerHtml, fallbackPictureHtml } from "#app/components/card-html";
import type { OfferCardData } from "#app/components/offer-card-data";

const offer = (uuid: string, cover: OfferCardData["cover"] = null): OfferCardData => ({
  uuid,
  title: "Menú para dos",
  region: "Madrid",
  category: "restaurants",
  cover,
  price: { actual_price: "20.00", regular_price: "40.00" },
  soldOut: false,
  rating: null,
});

const ids = Array.from({ length: 7 }, (_, i) => `0d2c${i}a10-1b2c-4d3e-8f40-${String(i).padStart(12, "7")}`);

describe("an offer's fallback picture", () => {
  it("is the same for the same offer and differs between the offers of one page", () => {
    expect(fallbackPictureHtml(ids[0])).toBe(fallbackPictureHtml(ids[0]));
    expect(new Set(ids.map(fallbackPictureHtml)).size).toBe(ids.length);
  });

  it("stands in only when the offer has no picture of its own: a partner's photo comes first", () => {
    expect(cardInnerHtml(offer(ids[0]), false, 2)).toContain('class="card-fallback"');
    const photo = cardInnerHtml(offer(ids[0], { image_url: "/media/a.webp", small_url: null, width: 800, height: 500 }), false, 2);
    expect(photo).toContain('<img src="/media/a.webp"');
    expect(photo).not.toContain("card-fallback");
  });

  it("is decoration: hidden from screen readers, no request, no size of its own", () => {
    const svg = fallbackPictureHtml(ids[1]);
    expect(svg).toMatch(/^<svg [^>]*aria-hidden="true"/);
    expect(svg).not.toMatch(/href|url\(/);
  });
});
