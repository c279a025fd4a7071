import type { Page } from "@playwright/test";

/** The smallest tap target a phone page may have: 44 × 44 CSS px (WCAG 2.5.5, Apple's and Android's guides). */
export const MIN_TARGET = 44;

/**
 * Every visible control of the page smaller than MIN_TARGET in either direction, as
 * «name (w × h)». A checkbox or radio is measured with its label (the label is what a thumb
 * taps); a link inside a sentence is exempt, as WCAG exempts it.
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>("a[href], button, select, input:not([type=hidden]), summary, textarea");
    for (const control of controls) {
      let target: HTMLElement = control;
      if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio"))
        target = control.closest("label") ?? control.labels?.[0] ?? control;
      const style = getComputedStyle(target);
      if (style.visibility === "hidden" || style.display === "none" || target.closest("[hidden], [inert], dialog:not([open])")) continue;
      const box = target.getBoundingClientRect();
      // Visually hidden, or parked off screen (the skip link until focused).
      if (box.width <= 1 || box.height <= 1 || box.right <= 0) continue;
      // Inline in a sentence: the block around it holds more text than the link itself.
      if (control.tagName === "A" && getComputedStyle(control).display === "inline") {
        const block = control.parentElement?.closest("p, li, dd, td, label, small, span, div");
        const text = (block?.textContent ?? "").replace(/\s+/g, " ").trim();
        if (text.length > (control.textContent ?? "").trim().length + 2) continue;
      }
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (control.getAttribute("aria-label") || control.textContent || control.getAttribute("name") || control.tagName)
          .replace(/\s+/g, " ")
          .trim()
          .slice(0, 40);
        found.push(`${control.tagName.toLowerCase()} «${name}» (${Math.round(box.width)} × ${Math.round(box.height)})`);
      }
    }
    return found;
  }, MIN_TARGET);
}
