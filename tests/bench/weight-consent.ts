/** Part of the weight section: no consent-gated integration in any page's first load before consent. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { figure } from "./support/figures";
import { fmtBytes, getJson, heading, ROOT, table } from "./support/helpers";
import { startServer, stop } from "./support/server";
import { firstLoad, jsFetcher } from "./weight";

/**
 * The integrations that wait for consent: the consented tools' entry and what it loads
 * (analytics, session replay, tag manager, the interactive map). None may be in a page's
 * first-load JavaScript before consent. Each is matched by its own path. (Vite's preload helper
 * once counted too, as a sign of a dynamic import of one of them, while the pages' own code made
 * none; since the toaster is loaded on demand (app/components/toast.ts) it is the layout's runtime.)
 * PayPal's buttons (/order/) and the captcha (its forms) are the necessary tools of the pages
 * that use them: shown beside, as information.
 */
const CONSENT_GATED =
  /^(app\/lib\/(third-party|tracking|map)\.client\.ts|app\/components\/third-party\.tsx|lib\/tracking\.ts|node_modules\/(@amplitude|leaflet|@rrweb|rrweb)\/)/;
const NECESSARY_TOOLS = /^(app\/components\/(captcha|wallet-buttons)\.tsx|lib\/captcha\.ts)$/;

/** The same third parties as the E2E "third-party" server: every key set, no host ever reached. */
const THIRD_PARTY_ENV: Record<string, string> = {
  ANALYTICS_API_KEY: "bench-analytics-key-0123456789",
  GTM_ID: "GTM-BENCH",
  MAPS_TILES_URL: "https://tiles.maps.example/{z}/{x}/{y}.png",
  CAPTCHA_SITE_KEY: "1x00000000000000000000AA",
  CAPTCHA_SECRET: "1x0000000000000000000000000000000AA",
  PAYMENT_PROVIDER: "paypal",
  PAYPAL_CLIENT_ID: "bench-paypal-client-id",
  PAYPAL_CLIENT_SECRET: "bench-paypal-secret",
  PAYPAL_WEBHOOK_ID: "bench-paypal-webhook",
};

type BundleStats = { chunks: Record<string, { modules: { id: string; renderedLength: number; gzip: number }[] }> };
type BrowserManifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, { id: string; parentId?: string; path?: string; module: string; imports?: string[] }>;
};

/** Bytes (each module gzipped alone, so an upper bound) of the matching modules in these chunks. */
function moduleBytes(stats: BundleStats, chunks: Iterable<string>, pattern: RegExp): { gzip: number; modules: string[] } {
  let gzip = 0;
  const modules: string[] = [];
  for (const chunk of chunks) {
    const file = chunk.replace(/^.*?\/assets\//, "assets/").replace(/[?#].*$/, "");
    for (const m of stats.chunks[file]?.modules ?? []) {
      if (!pattern.test(m.id)) continue;
      gzip += m.gzip;
      modules.push(m.id);
    }
  }
  return { gzip, modules };
}

/** The visitor's signed consent cookie for a choice, as «Aceptar todo» / «Rechazar todo» set it. */
async function consentCookie(origin: string, intent: "accept-all" | "reject-all"): Promise<string> {
  const res = await fetch(`${origin}/consent`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ intent, redirectTo: "/" }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("ofertas_consent="));
  if (!cookie) throw new Error(`POST /consent (${intent}): ${res.status}, no consent cookie`);
  return cookie.split(";")[0];
}

export async function consentGatedWeight() {
  heading("Consent-gated JavaScript, every third-party key set");
  const stats = JSON.parse(readFileSync(path.join(ROOT, "build/bundle-stats.json"), "utf8")) as BundleStats;
  const server = await startServer({ env: THIRD_PARTY_ENV });
  try {
    const { origin } = server;
    const first = await getJson<{ results: { uuid: string }[] }>(`${origin}/api/v0/public/offers/?page_size=1`);
    const offerId = first.results[0]?.uuid;
    const pages = [
      "/",
      "/ofertas/",
      ...(offerId ? [`/ofertas/${offerId}/`] : []),
      "/checkout/",
      "/login",
      "/login/registro",
      "/empresas",
      "/favorite",
      "/consent",
    ];
    const [accepted, rejected] = [await consentCookie(origin, "accept-all"), await consentCookie(origin, "reject-all")];
    const fetchJs = jsFetcher();
    const rows: (string | number)[][] = [];
    for (const page of pages) {
      const url = `${origin}${page}`;
      const none = await firstLoad(url, fetchJs);
      const no = await firstLoad(url, fetchJs, { cookie: rejected });
      const yes = await firstLoad(url, fetchJs, { cookie: accepted });
      const tagged = (html: string) => /<script\b[^>]*\bsrc="[^"]*\/third-party-[\w-]+\.js"/.test(html);
      const gated = Math.max(moduleBytes(stats, none.all, CONSENT_GATED).gzip, moduleBytes(stats, no.all, CONSENT_GATED).gzip);
      const tags = [tagged(none.html), tagged(no.html)].filter(Boolean).length;
      const gatedWithConsent = moduleBytes(stats, yes.all, CONSENT_GATED).gzip;
      const necessary = moduleBytes(stats, none.all, NECESSARY_TOOLS);
      const name = page.replace(offerId ?? "\0", "{uuid}");
      rows.push([
        name,
        none.jsGzip,
        no.jsGzip,
        gated,
        tags ? "yes" : "no",
        yes.jsGzip,
        `+${yes.jsGzip - no.jsGzip}`,
        gatedWithConsent,
        necessary.gzip ? `${necessary.gzip} (${necessary.modules.map((m) => path.basename(m)).join(", ")})` : 0,
      ]);
      figure(
        `consent-gated JS in first load without consent, ${name}`,
        fmtBytes(gated) + (tags ? " + a script tag" : ""),
        `first load ${fmtBytes(no.jsGzip)}; after «Aceptar todo» ${fmtBytes(yes.jsGzip)}`,
        gated === 0 && tags === 0,
      );
    }
    console.log(
      table(
        [
          "page",
          "JS, no choice",
          "JS, rejected",
          "gated in it",
          "tag",
          "JS, accepted",
          "difference",
          "gated, accepted",
          "necessary tools (info)",
        ],
        rows,
      ),
    );

    // Every route of the app, from the build's own manifest: pages that need a login or a pending
    // order (/cuenta, /order/, /socios…) included. A page loads the entry, then each route of its branch.
    const manifestFile = readdirSync(path.join(ROOT, "build/client/assets")).find((f) => /^manifest-[\w-]+\.js$/.test(f));
    if (manifestFile) {
      const text = readFileSync(path.join(ROOT, "build/client/assets", manifestFile), "utf8");
      const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as BrowserManifest;
      const offenders: string[] = [];
      const necessaryRoutes: string[] = [];
      for (const route of Object.values(manifest.routes)) {
        const chunks = new Set([manifest.entry.module, ...manifest.entry.imports]);
        for (let r: typeof route | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
          chunks.add(r.module);
          for (const i of r.imports ?? []) chunks.add(i);
        }
        const gated = moduleBytes(stats, chunks, CONSENT_GATED);
        if (gated.gzip) offenders.push(`${route.id} ${gated.gzip} B (${gated.modules.join(", ")})`);
        const necessary = moduleBytes(stats, chunks, NECESSARY_TOOLS);
        if (necessary.gzip) necessaryRoutes.push(`${route.id} ${necessary.gzip} B`);
      }
      const routes = Object.keys(manifest.routes).length;
      console.log(`\nEvery route's first-load chunks (${routes} routes, from ${manifestFile}):`);
      for (const o of offenders.slice(0, 5)) console.log(`  consent-gated code in ${o}`);
      if (offenders.length > 5) console.log(`  … and in ${offenders.length - 5} more routes`);
      console.log(`  necessary tools' code (configuration-gated, info): ${necessaryRoutes.join("; ") || "none"}`);
      figure(
        `consent-gated JS in first load, every route (${routes})`,
        offenders.length ? `${offenders.length} routes carry some` : "0 B in each",
        "0 B",
        offenders.length === 0,
      );
    }
    console.log(
      "(gated bytes: each module of the consent-gated integrations gzipped alone, from build/bundle-stats.json; JS: gzip as transferred)",
    );
  } finally {
    await stop(server);
  }
}
