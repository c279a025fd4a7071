import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { photoSrcset } from "#rules/images";
import { discountBadge, formatPrice } from "#rules/prices";
import type { OfferRating } from "#contract/offers";
import { escapeHtml } from "#rules/text";
import type { OfferCardData } from "./offer-card-data";
import { plural } from "#rules/plurals";

/*
 * Markup that nothing on the page ever changes, written as HTML strings: a card's picture, badges,
 * title, rating and price. As React elements they were ~20 per card, 28 cards a page: most of what
 * the server spent rendering a listing, and most of what a phone spent hydrating it. As a string
 * they are one element per card, which React neither renders element by element nor hydrates.
 * Everything that goes in is escaped here, as React would have done.
 */

/**
 * A rating's average with one decimal and a decimal comma ("4,5"), as Intl.NumberFormat("es-ES")
 * writes it, without loading the locale in the browser (see formatCents in rules/prices.ts).
 */
export const ratingDecimal = (value: number) => value.toFixed(1).replace(".", ",");

/** «-50%», read out as «Descuento 50%»; null when there is no discount to show. */
export function discountBadgeText(actual: string, regular: string): { badge: string; label: string } | null {
  const badge = discountBadge(actual, regular);
  return badge ? { badge, label: `Descuento ${badge.replace("-", "")}` } : null;
}

/** What goes inside `<span class="price">`: the price paid and, struck through, the price before. */
export function priceInnerHtml(actual: string, regular: string, tickets = 1): string {
  const actualText = formatPrice(actual, tickets);
  const regularText = regular === actual ? actualText : formatPrice(regular, tickets);
  const before =
    regularText !== actualText ? `<s class="price-regular"><span class="visually-hidden">Antes </span>${escapeHtml(regularText)}</s>` : "";
  return `<strong class="price-actual">${escapeHtml(actualText)}</strong>${before}`;
}

/**
 * Five stars filled to `value` to the nearer half (4,5 is four and a half, 4,7 too; 4,8 is five):
 * the whole ones as text, a half one drawn by CSS over a whole glyph, the empty ones for CSS.
 */
export function starGlyphs(value: number): { filled: string; half: boolean; empty: string } {
  const halves = Math.min(10, Math.max(0, Math.round(value * 2)));
  const full = Math.floor(halves / 2);
  const half = halves % 2 === 1;
  return { filled: "★".repeat(full), half, empty: "★".repeat(5 - full - (half ? 1 : 0)) };
}

/** The stars' markup; its label is read instead of the characters (an image's content is not). */
export function starsHtml(value: number, label: string): string {
  const { filled, half, empty } = starGlyphs(value);
  return `<span class="stars" role="img" aria-label="${escapeHtml(label)}" data-empty="${empty}">${filled}${half ? `<span class="star-half">★</span>` : ""}</span>`;
}

/**
 * How a rating's count is worded: only buyers can rate, and the words say so. On the cards the
 * «compras verificadas» part is for screen readers only (it wrapped every card's rating).
 */
const ratingWords = (count: number) =>
  plural(
    count,
    `valoración<span class="rating-verified"> de una compra verificada</span>`,
    `valoraciones<span class="rating-verified"> de compras verificadas</span>`,
  );

/**
 * What goes inside a rating's `<p>`: «4,5 ★★★★½ (12 valoraciones de compras verificadas)». The
 * stars are an image for screen readers, filled to the nearer half star. The words can be hidden
 * on compact cards, and are still read out.
 */
export function ratingInnerHtml(rating: OfferRating): string {
  const average = ratingDecimal(rating.average);
  return (
    starsHtml(rating.average, `Valoración media: ${average} de 5 estrellas`) +
    ` <strong>${average}</strong> <span class="muted">(${Number(rating.count)}<span class="rating-word"> ${ratingWords(Number(rating.count))}</span>)</span>`
  );
}

/** A number from an offer's id (FNV-1a): the same offer always gets the same fallback colours. */
function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** The merchant's name in at most three lines of about `width` characters; a longer one ends in «…». */
export function nameLines(name: string, width = 14): string[] {
  const lines: string[] = [];
  for (const word of name.trim().split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  if (lines.length > 3) lines.splice(2, lines.length, `${lines[2]}…`);
  return lines;
}

/**
 * The picture of an offer without one of its own: the merchant's name, large, on a colour and two
 * soft shapes that follow from the offer's id, so neighbouring cards differ and each says whose it
 * is. Inline (no request) and sized by its box like a photo (no layout shift); drawn to fit inside
 * any box (`meet`) with a background wider and taller than its viewBox, so a phone's narrower card
 * shows the whole name and no empty bands.
 */
export function fallbackPictureHtml(offerId: string, merchant: string): string {
  const h = idHash(offerId);
  const hue = h % 360;
  const [a, b, c] = [0, 1, 2].map((i) => (h >>> (i * 7)) & 127);
  const lines = nameLines(merchant);
  const longest = Math.max(1, ...lines.map((line) => line.length));
  // About 0.6 em per character of a bold sans-serif: the longest line fills ~340 of the 400 units.
  const size = Math.round(Math.min(72, 340 / (longest * 0.6), 200 / lines.length / 1.15));
  const lineHeight = Math.round(size * 1.15);
  const first = 125 - ((lines.length - 1) * lineHeight) / 2;
  const text = lines.map((line, i) => `<tspan x="200" y="${Math.round(first + i * lineHeight)}">${escapeHtml(line)}</tspan>`).join("");
  return (
    `<svg class="card-fallback" viewBox="0 0 400 250" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false">` +
    `<rect x="-400" y="-250" width="1200" height="750" fill="hsl(${hue} 55% 90%)"/>` +
    `<circle cx="${20 + (a % 60)}" cy="${30 + (b % 40)}" r="${70 + (c % 40)}" fill="hsl(${(hue + 30) % 360} 60% 80%)"/>` +
    `<circle cx="${330 + (c % 60)}" cy="${190 + (a % 50)}" r="${60 + (b % 40)}" fill="hsl(${(hue + 200) % 360} 50% 84%)"/>` +
    `<text text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif" font-weight="800" font-size="${size}" fill="hsl(${hue} 45% 22%)">${text}</text>` +
    `</svg>`
  );
}

/** The small picture of a search suggestion: the cover's smaller copy, or the drawn fallback. */
export function thumbHtml(offer: OfferCardData): string {
  const { cover } = offer;
  if (!cover) return fallbackPictureHtml(offer.uuid, offer.merchant);
  return `<img src="${escapeHtml(cover.small_url ?? cover.image_url)}" alt="" width="80" height="50" loading="lazy" decoding="async"/>`;
}

/** A card's content inside its link; `level` is the title's heading level. */
export function cardInnerHtml(offer: OfferCardData, eager: boolean, level: 2 | 3): string {
  const { cover, price, soldOut } = offer;
  let media = "";
  if (cover) {
    const priority = eager ? ` loading="eager" decoding="async" fetchpriority="high"` : ` loading="lazy" decoding="async"`;
    // Phones show the picture 8.5rem wide beside the text (styles.css), wider screens at most one
    // grid column (~23rem): the 400 px copy unless the screen's density asks for more.
    const candidates = photoSrcset(cover);
    const srcset = candidates ? ` srcset="${escapeHtml(candidates)}" sizes="(max-width: 780px) 8.5rem, 23rem"` : "";
    media += `<img src="${escapeHtml(cover.image_url)}"${srcset} alt="" width="${Number(cover.width)}" height="${Number(cover.height)}"${priority}/>`;
  } else {
    media += fallbackPictureHtml(offer.uuid, offer.merchant);
  }
  const discount = price && !soldOut ? discountBadgeText(price.actual_price, price.regular_price) : null;
  if (discount)
    media += `<span class="badge-discount"><span aria-hidden="true">${discount.badge}</span><span class="visually-hidden">${discount.label}</span></span>`;
  if (soldOut) media += `<span class="badge-soldout">Agotada</span>`;
  const meta = isCategoryId(offer.category) ? `${offer.region} · ${CATEGORY_LABELS[offer.category]}` : offer.region;
  return (
    `<div class="card-media">${media}</div><div class="card-body">` +
    `<h${level} class="card-title">${escapeHtml(offer.title)}</h${level}>` +
    `<p class="card-meta">${escapeHtml(meta)}</p>` +
    (offer.rating ? `<p class="card-rating" data-testid="offer-rating">${ratingInnerHtml(offer.rating)}</p>` : "") +
    (price ? `<span class="price">${priceInnerHtml(price.actual_price, price.regular_price)}</span>` : "") +
    `</div>`
  );
}

/**
 * The same card's markup every time it is shown (the catalogue cache hands out the same card
 * objects for a minute): worked out once per card, position (eager or lazy image) and level.
 */
const memo = new WeakMap<OfferCardData, Map<string, string>>();

export function cardInnerHtmlOnce(offer: OfferCardData, eager: boolean, level: 2 | 3): string {
  let byVariant = memo.get(offer);
  if (!byVariant) memo.set(offer, (byVariant = new Map()));
  const key = `${eager ? "e" : "l"}${level}`;
  let html = byVariant.get(key);
  if (html === undefined) byVariant.set(key, (html = cardInnerHtml(offer, eager, level)));
  return html;
}
