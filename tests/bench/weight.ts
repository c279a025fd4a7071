/** Page weight: the HTML and the JavaScript of a first visit, against their budgets. */
import { DEFERRED_PRELOAD, DEFERRED_TYPE } from "#app/document/defer-scripts.server";
import { figure } from "./support/figures";
import { fmtBytes, getJson, gzipSize, heading, KB, rawGet, table, type RawResponse } from "./support/helpers";
import type { BenchSection } from "./support/section";
import { consentGatedWeight } from "./weight-consent";

/** What react-dom + the Remix runtime cost on their own, gzip. */
const FRAMEWORK_BASELINE = 86 * KB;
const HOME_BUDGET = FRAMEWORK_BASELINE + 20 * KB;
const IFRAME_BUDGET = 15 * KB;

/** Every script the HTML makes the browser load on a first visit. */
function scriptsOf(html: string, pageUrl: string): string[] {
  const found = new Set<string>();
  const add = (spec: string) => {
    if (!spec || spec.startsWith("data:")) return;
    const url = new URL(spec.replace(/&amp;/g, "&"), pageUrl);
    if (url.origin === new URL(pageUrl).origin) found.add(url.href);
  };
  const attr = (attrs: string, name: string) =>
    new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
      .exec(attrs)
      ?.slice(1)
      .find((v) => v !== undefined);

  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attrs, content] = m;
    const src = attr(attrs, "src");
    if (src) {
      add(src);
    } else if (["module", DEFERRED_TYPE].includes((attr(attrs, "type") ?? "").toLowerCase())) {
      for (const spec of importsIn(content)) add(spec);
    }
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const rel = (attr(m[1], "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attr(m[1], "href");
    if (href && (rel.includes("modulepreload") || attr(m[1], "itemprop") === DEFERRED_PRELOAD)) add(href);
  }
  return [...found];
}

/** Specifiers of `import "x"`, `import … from "x"`, `export … from "x"` and `import("x")`. */
function importsIn(code: string): string[] {
  const specs: string[] = [];
  for (const m of code.matchAll(/\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) specs.push(m[1]);
  for (const m of code.matchAll(/\bimport\s*["']([^"']+)["']/g)) specs.push(m[1]);
  for (const m of code.matchAll(/\bfrom\s*["']([^"']+)["']/g)) specs.push(m[1]);
  return specs;
}

/** Static imports inside a bundled chunk (not dynamic import(): those load later, on demand). */
function staticImportsOfChunk(code: string, chunkUrl: string): string[] {
  const specs = new Set<string>();
  for (const m of code.matchAll(/(?:\bimport|\bfrom)\s*["']((?:\.{1,2}\/|\/)[^"']+\.m?js)["']/g)) {
    specs.add(new URL(m[1], chunkUrl).href);
  }
  return [...specs];
}

type PageWeight = { page: string; htmlBytes: number; htmlGzip: number; jsFiles: number; jsGzip: number; missedPreloads: number };

type JsFile = { gzip: number; code: string };
export type JsFetcher = (url: string) => Promise<JsFile>;

/** Fetches each script once per bench run: pages share most of their chunks. */
export function jsFetcher(): JsFetcher {
  const cache = new Map<string, JsFile>();
  return async (url: string) => {
    let entry = cache.get(url);
    if (!entry) {
      const r = await rawGet(url, { "accept-encoding": "gzip" });
      if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
      entry = { gzip: gzipSize(r), code: r.body.toString("utf8") };
      cache.set(url, entry);
    }
    return entry;
  };
}

type FirstLoad = { response: RawResponse; html: string; listed: string[]; all: Set<string>; jsGzip: number };

/** A page's first visit: its HTML, and every script it loads before it runs (listed or imported). */
export async function firstLoad(url: string, fetchJs: JsFetcher, headers: Record<string, string> = {}): Promise<FirstLoad> {
  const response = await rawGet(url, { "accept-encoding": "gzip", accept: "text/html", ...headers });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  const html = response.body.toString("utf8");
  const listed = scriptsOf(html, url);
  // Walk static imports too: a chunk the HTML forgot to preload still loads before the page runs.
  const all = new Set(listed);
  const queue = [...listed];
  while (queue.length) {
    const js = queue.shift()!;
    const { code } = await fetchJs(js);
    for (const dep of staticImportsOfChunk(code, js)) {
      if (!all.has(dep)) {
        all.add(dep);
        queue.push(dep);
      }
    }
  }
  let jsGzip = 0;
  for (const js of all) jsGzip += (await fetchJs(js)).gzip;
  return { response, html, listed, all, jsGzip };
}

async function pageWeight(origin: string): Promise<PageWeight[]> {
  heading("Page weight (first visit)");
  const first = await getJson<{ results: { uuid: string }[] }>(`${origin}/api/v0/public/offers/?page_size=1`);
  const offerId = first.results[0]?.uuid;
  const pages = ["/", "/ofertas/", ...(offerId ? [`/ofertas/${offerId}/`] : []), "/iframe/"];
  const fetchJs = jsFetcher();

  const results: PageWeight[] = [];
  for (const page of pages) {
    const { response: r, listed, all, jsGzip } = await firstLoad(`${origin}${page}`, fetchJs);
    results.push({
      page: page.replace(offerId ?? "\0", "{uuid}"),
      htmlBytes: r.body.length,
      htmlGzip: gzipSize(r),
      jsFiles: all.size,
      jsGzip,
      missedPreloads: all.size - listed.length,
    });
  }

  console.log(
    table(
      ["page", "HTML bytes", "HTML gzip", "JS files", "JS gzip"],
      results.map((p) => [p.page, p.htmlBytes, p.htmlGzip, p.jsFiles, `${p.jsGzip} (${fmtBytes(p.jsGzip)})`]),
    ),
  );
  const missed = results.filter((p) => p.missedPreloads > 0);
  for (const p of missed)
    console.log(`note: ${p.page} statically imports ${p.missedPreloads} chunk(s) not listed in its HTML (counted above)`);
  console.log("(gzip: as transferred when the server compressed it, otherwise gzip -9 computed here; KB = 1024 B)");

  console.log("\nBudgets:");
  const home = results.find((p) => p.page === "/");
  const iframe = results.find((p) => p.page === "/iframe/");
  if (home) {
    const ok = home.jsGzip <= HOME_BUDGET;
    console.log(
      `  ${ok ? "PASS" : "FAIL"}  / first-load JS ${fmtBytes(home.jsGzip)} gzip ≤ ${fmtBytes(HOME_BUDGET)} ` +
        `(react-dom + Remix ≈ ${fmtBytes(FRAMEWORK_BASELINE)} + 20 KB; app share ≈ ${fmtBytes(Math.max(0, home.jsGzip - FRAMEWORK_BASELINE))})`,
    );
  }
  if (iframe) {
    const ok = iframe.jsGzip < IFRAME_BUDGET;
    console.log(`  ${ok ? "PASS" : "FAIL"}  /iframe/ total JS ${fmtBytes(iframe.jsGzip)} gzip < ${fmtBytes(IFRAME_BUDGET)}`);
  }
  return results;
}

export const weight: BenchSection = {
  name: "weight",
  byDefault: true,
  onShop: true,
  async run(shop) {
    const weights = await pageWeight(shop.origin);
    const home = weights.find((w) => w.page === "/");
    if (home)
      figure(
        "first-load JS of /",
        `${fmtBytes(home.jsGzip)} gzip`,
        `React + Remix ${fmtBytes(FRAMEWORK_BASELINE)} + 20 KB`,
        home.jsGzip <= HOME_BUDGET,
      );
    await consentGatedWeight();
  },
};
