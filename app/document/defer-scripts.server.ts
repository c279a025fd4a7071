import { utf8 } from "#platform/gzip.server";

/**
 * Starts the app's JavaScript after the first paint instead of beside the stylesheet.
 *
 * Every page works without JavaScript, so nothing the visitor first sees waits on it; yet Remix's
 * <Scripts> writes `<link rel="modulepreload">` tags and an inline module script that the browser
 * fetches and runs while it is still building the first frame. Lighthouse's simulation (Lantern)
 * counts every script that loaded and ran before the largest paint as part of that paint: on a
 * throttled phone the layout chunk alone put the LCP at twice the first paint.
 *
 * So the shell is rewritten on its way out: the preload tags and the module script are made inert
 * (an `itemprop` in place of the `rel`, `type="text/x-deferred-module"`), and a small nonce'd script adds them again
 * once the browser has shown the first contentful paint (its `paint` timing entry) and, where the
 * browser reports largest paints, every high-priority picture in view that could be the largest
 * has been shown too (at once in a hidden tab, which paints nothing until shown; after
 * FALLBACK_MS whatever happens). The entry comes when the frame is on screen, not when the page's thread has
 * drawn it: on a busy machine the frame's raster and display had taken long enough that the
 * modules, started in the task after the first animation frame as before, were fetched and run
 * before the paint, and Lantern then counted them in the first paint and the largest. A browser without paint timing
 * still starts after the first animation frame. React hydrates the inert script without
 * touching their attributes in production (removing them would be a mismatch that makes React
 * render the whole document again), and leaves the nodes added at the end of <head> and <body>
 * alone, as it does with the consented tools' tag.
 *
 * A pure string rewrite of what React rendered: if Remix ever renders these tags differently the
 * patterns stop matching and the page simply keeps Remix's own loading.
 */

const PRELOAD_MARK = '<link rel="modulepreload" href="';
const PRELOAD = /<link rel="modulepreload" href="([^"]+)"\/>/g;
const MODULE_SCRIPT_MARK = ' type="module" async="">';
const MODULE_SCRIPT = new RegExp(`<script( nonce="[^"]*")?${MODULE_SCRIPT_MARK}([\\s\\S]*?)</script>`, "y");
export const DEFERRED_TYPE = "text/x-deferred-module";
/**
 * The inert preload's attribute. A `<link>` in <body> is valid HTML only with a body-ok `rel`
 * (all of which fetch) or an `itemprop`; a link with an itemprop and no `rel` is one no browser
 * acts on, and the placeholder keeps React's hydration of the node.
 */
export const DEFERRED_PRELOAD = "x-deferred-modulepreload";
const ID = "app-modules";
/** The app starts this long after the loader at the latest, painted or not. */
const FALLBACK_MS = 3000;

/**
 * The loader, the same on every page: puts back the page's preloads and its module script once
 * the first frame is on screen. It runs in the browser as its own source (`.toString()`), so it
 * reads only its arguments and the browser's globals, and is written for any browser with modules.
 */
export function startAppModules(hrefs: string[], id: string, fallbackMs: number): void {
  const d = document;
  let done = false;
  function go() {
    if (done) return;
    done = true;
    hrefs.forEach(function (h) {
      const l = d.createElement("link");
      l.rel = "modulepreload";
      l.href = h;
      d.head.appendChild(l);
    });
    const inert = d.getElementById(id) as HTMLScriptElement;
    const s = d.createElement("script");
    s.type = "module";
    s.nonce = inert.nonce;
    s.text = inert.text;
    d.body.appendChild(s);
  }
  const P = typeof PerformanceObserver == "function" ? PerformanceObserver : null;
  const types = P ? P.supportedEntryTypes : null;
  if (d.hidden) go();
  else if (P && types && types.indexOf("paint") >= 0) {
    const lcp = types.indexOf("largest-contentful-paint") >= 0;
    let shown = false;
    let big = 0;
    const o = new P(function (list) {
      list.getEntries().forEach(function (e) {
        if (e.name == "first-contentful-paint") shown = true;
        if (e.entryType == "largest-contentful-paint" && (e as PerformanceEntry & { size: number }).size > big)
          big = (e as PerformanceEntry & { size: number }).size;
      });
      ready();
    });
    // Ready once the first contentful paint is on screen and no high-priority picture in view
    // could still be a larger paint than the largest shown (then its own entry will come). The 2 %
    // is slack: an entry's size leaves out the picture's border and padding, which its box includes.
    function ready() {
      if (!shown) return;
      if (lcp) {
        const v = d.documentElement;
        const m = d.querySelectorAll('img[fetchpriority="high"]');
        for (let i = 0; i < m.length; i++) {
          const r = m[i].getBoundingClientRect();
          const a =
            Math.max(0, Math.min(r.right, v.clientWidth) - Math.max(r.left, 0)) *
            Math.max(0, Math.min(r.bottom, v.clientHeight) - Math.max(r.top, 0));
          if (a > big * 1.02) return;
        }
      }
      o.disconnect();
      setTimeout(go);
    }
    o.observe({ type: "paint", buffered: true });
    if (lcp) o.observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(go, fallbackMs);
  } else
    requestAnimationFrame(function () {
      setTimeout(go);
    });
}

/** The loader's source; each page calls it with its preload hrefs. */
const LOADER = `(${startAppModules.toString()})`;

/**
 * The page as pieces in order: slices of what React wrote around the rewritten tags. Encoded one
 * by one (`utf8` in gzip.server.ts), no copy of the whole page is made as a string; a page holds
 * two-byte characters («€», «…»), and joining the pieces first cost two such copies per request.
 */
export function deferAppScriptsParts(html: string): string[] {
  // Found by plain string search first: the regular expressions then read the few kilobytes
  // around Remix's scripts, not the whole page.
  const mark = html.indexOf(MODULE_SCRIPT_MARK);
  if (mark < 0) return [html];
  MODULE_SCRIPT.lastIndex = html.lastIndexOf("<script", mark);
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return [html];
  // Remix writes its preloads just before its scripts, and none after.
  const firstPreload = html.indexOf(PRELOAD_MARK);
  const from = firstPreload >= 0 && firstPreload < script.index ? firstPreload : script.index;
  const nonceAttr = script[1] ?? "";
  const preloads = html.slice(from, script.index);
  const hrefs = [...preloads.matchAll(PRELOAD)].map((m) => m[1]);
  const loader = `${LOADER}(${JSON.stringify(hrefs)},${JSON.stringify(ID)},${FALLBACK_MS})`;
  const inert = `<script${nonceAttr} type="${DEFERRED_TYPE}" id="${ID}">${script[2]}</script><script${nonceAttr}>${loader}</script>`;
  const inertPreload = (_: string, href: string) => `<link itemprop="${DEFERRED_PRELOAD}" href="${href}"/>`;
  return [html.slice(0, from), preloads.replace(PRELOAD, inertPreload), inert, html.slice(script.index + script[0].length)];
}

/** The same for a chunk of the HTML stream: only the chunk with Remix's module script (the shell) is read as text. */
export function deferAppScriptsIn(chunk: Buffer): Buffer {
  return chunk.includes(MODULE_SCRIPT_MARK) ? utf8(deferAppScriptsParts(chunk.toString("utf8"))) : chunk;
}
