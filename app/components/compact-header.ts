import { useEffect, useRef } from "react";

/** Scrolled this far in one direction before the header changes: a finger's wobble does nothing. */
const SCROLL_SLACK = 8;

/**
 * Phones: scrolling down folds the header to its first row (the region and category row slides
 * under it); scrolling up brings the row back. Only `top` and a transform change (styles.css,
 * `[data-compact]`), never the header's height, so nothing below it moves. Without JS the header
 * stays as it is.
 */
export function useCompactHeader() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    const fold = header?.querySelector<HTMLElement>(".header-row-secondary");
    if (!header || !fold) return;
    let last = window.scrollY;
    let queued = false;
    const update = () => {
      queued = false;
      const y = window.scrollY;
      if (y <= header.offsetHeight) {
        header.removeAttribute("data-compact");
        last = y;
        return;
      }
      if (Math.abs(y - last) < SCROLL_SLACK) return;
      const down = y > last;
      last = y;
      if (down) header.style.setProperty("--header-fold", `${fold.offsetHeight}px`);
      header.toggleAttribute("data-compact", down);
    };
    const onScroll = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(update);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return ref;
}
