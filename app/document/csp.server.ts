import { createHash, randomBytes } from "node:crypto";
import type { Config } from "#platform/config.server";

/**
 * The shop's Content-Security-Policy, built in one place: contentSecurityPolicy() below.
 *
 * Scripts run only from this origin, and inline ones only with the per-request nonce (Remix's
 * inline scripts get it through <Scripts nonce>; a third-party script added by our own code copies
 * it from any script[nonce] on the page) or, on a page shared by many visitors and kept rendered
 * (document-cache.server.ts), by the hash of each inline script it holds: one nonce for everyone
 * would be no nonce at all. Forms may post only to this site and to the payment providers this
 * server is configured for (the "Pagar" form's 303 goes to the provider's page, and form-action
 * covers that redirect).
 *
 * To allow more sources (analytics, a tag manager, a payment SDK, maps, a captcha):
 *   - from code, once at start: allowCspSources("script-src", "https://challenges.cloudflare.com");
 *   - from configuration: CSP_EXTRA_SOURCES="script-src https://www.googletagmanager.com; frame-src https://challenges.cloudflare.com"
 * Directives the policy does not set yet (connect-src, img-src, frame-src…) are added when a
 * source is allowed for them; until then they are unrestricted, as before.
 */

export type CspDirective =
  "script-src" | "connect-src" | "img-src" | "style-src" | "font-src" | "frame-src" | "media-src" | "worker-src" | "form-action";

const extra = new Map<CspDirective, Set<string>>();

/** Adds sources to a directive for every response from now on. */
export function allowCspSources(directive: CspDirective, ...sources: string[]): void {
  const set = extra.get(directive) ?? new Set<string>();
  for (const s of sources) if (isSource(s)) set.add(s);
  extra.set(directive, set);
}

/** A host source or keyword; anything with ; , or spaces would inject another directive. */
function isSource(s: string): boolean {
  return /^(?:'[a-z-]+'|https?:\/\/[a-z0-9.*-]+(?::\d+)?(?:\/[^\s;,]*)?|[a-z0-9.*-]+\.[a-z]{2,}|https:|data:|blob:)$/i.test(s);
}

/** "script-src a b; frame-src c" → map of directive → sources (unknown directives ignored). */
export function parseExtraSources(text: string | undefined): Map<CspDirective, string[]> {
  const out = new Map<CspDirective, string[]>();
  for (const part of (text ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name || !KNOWN.has(name as CspDirective)) continue;
    out.set(name as CspDirective, [...(out.get(name as CspDirective) ?? []), ...sources.filter(isSource)]);
  }
  return out;
}

const KNOWN = new Set<CspDirective>([
  "script-src",
  "connect-src",
  "img-src",
  "style-src",
  "font-src",
  "frame-src",
  "media-src",
  "worker-src",
  "form-action",
]);

/** Where each configured provider sends the buyer to pay (its hosted page or approval page). */
export function paymentPageOrigins(
  config: Pick<Config, "PAYPAL_CLIENT_ID" | "PAYPAL_API_BASE" | "RAPYD_ACCESS_KEY" | "RAPYD_API_BASE" | "ALLPAY_LOGIN" | "ALLPAY_API_BASE">,
): string[] {
  const origins: string[] = [];
  if (config.PAYPAL_CLIENT_ID) {
    origins.push(config.PAYPAL_API_BASE.includes("sandbox") ? "https://www.sandbox.paypal.com" : "https://www.paypal.com");
  }
  if (config.RAPYD_ACCESS_KEY) {
    origins.push(config.RAPYD_API_BASE.includes("sandbox") ? "https://sandboxcheckout.rapyd.net" : "https://checkout.rapyd.net");
  }
  if (config.ALLPAY_LOGIN) origins.push(new URL(config.ALLPAY_API_BASE).origin);
  return origins;
}

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Every `<script>` element without a `src` (what runs, and what the page's loader runs later). */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The CSP sources (`'sha256-…'`) of a page's inline scripts, each as the browser hashes it: the
 * UTF-8 of the text between the tags. Inert ones (the deferred app start's module, JSON-LD) are
 * hashed too: the first is run later as a script of the same text.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, text] of html.matchAll(INLINE_SCRIPT)) hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  return [...hashes];
}

/**
 * The one builder of the policy. `framable`: the /iframe widget, which other sites may frame.
 * Inline scripts are allowed by `nonce`, or by `scriptHashes` when given (a shared page).
 * `scripts: false` (development with Vite's own inline scripts) leaves script-src out. `wasm`: the
 * page may compile WebAssembly ('wasm-unsafe-eval', which allows no JavaScript eval).
 */
export function contentSecurityPolicy({
  nonce,
  scriptHashes,
  framable,
  wasm = false,
  config,
  scripts = true,
  thirdParty,
}: {
  nonce?: string;
  scriptHashes?: string[];
  framable: boolean;
  wasm?: boolean;
  config: Parameters<typeof paymentPageOrigins>[0] & Pick<Config, "CSP_EXTRA_SOURCES">;
  scripts?: boolean;
  /** The configured third-party tools' hosts (third-party-csp.server.ts). */
  thirdParty?: Partial<Record<CspDirective, string[]>>;
}): string {
  const fromConfig = parseExtraSources(config.CSP_EXTRA_SOURCES);
  const sources = (directive: CspDirective, base: string[]) =>
    [
      ...new Set([
        ...base,
        ...(extra.get(directive) ?? []),
        ...(fromConfig.get(directive) ?? []),
        ...(thirdParty?.[directive] ?? []).filter(isSource),
      ]),
    ].join(" ");
  const directives: string[] = [];
  const inline = scriptHashes ?? (nonce ? [`'nonce-${nonce}'`] : []);
  if (scripts) directives.push(`script-src ${sources("script-src", ["'self'", ...(wasm ? ["'wasm-unsafe-eval'"] : []), ...inline])}`);
  // The offline worker and the web app manifest come from this site only (app/offline/).
  directives.push("object-src 'none'", "base-uri 'self'", "manifest-src 'self'");
  directives.push(`form-action ${sources("form-action", ["'self'", ...paymentPageOrigins(config)])}`);
  directives.push(framable ? "frame-ancestors *" : "frame-ancestors 'none'");
  for (const directive of KNOWN) {
    if (directive === "script-src" || directive === "form-action") continue;
    const list = sources(directive, []);
    if (list) directives.push(`${directive} 'self' ${list}`);
    // The offline worker is /sw.js: no worker from elsewhere, whatever else is configured.
    else if (directive === "worker-src") directives.push("worker-src 'self'");
  }
  return directives.join("; ");
}
