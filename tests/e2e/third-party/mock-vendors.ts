/**
 * Every host that is not this shop is intercepted (never reached) and recorded. Vendors get small
 * stand-ins that behave like their real scripts where the test needs it: the tag manager sets a
 * Google Analytics cookie, PayPal's SDK renders a button, the tiles are a grey PNG.
 */
import { gunzipSync } from "node:zlib";
import type { BrowserContext, Request } from "@playwright/test";

export type Vendors = {
  /** Every request to a host other than localhost, in order. */
  requests: Request[];
  /** Amplitude batches (HTTP API v2 bodies) in the order they were sent. */
  batches: { url: string; body: { api_key: string; events: Record<string, any>[]; options?: Record<string, unknown> } }[];
  /** Make PayPal's SDK fail to load. */
  paypalDown: boolean;
};

const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mO8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==", "base64");

const GTM_STUB = `(function(){document.cookie="_ga=GA1.1.12345.67890; path=/; max-age=3600";document.cookie="_ga_E2E=GS1.1.1; path=/; max-age=3600";window.__gtmLoaded=true;})();`;

/** Turnstile's explicit-render API: the widget adds its token field to the form, as the real one does. */
const TURNSTILE_STUB = `window.turnstile={render:function(el,o){var i=document.createElement("input");i.type="hidden";i.name=o["response-field-name"];i.value="e2e-token";el.appendChild(i);var p=document.createElement("p");p.textContent="Verificación antispam completada";el.appendChild(p);return "w1"},remove:function(){}};`;

const PAYPAL_STUB = `window.paypal={Buttons:function(o){return{isEligible:function(){return true},render:function(el){var b=document.createElement("button");b.type="button";b.textContent="Pagar con PayPal";b.className="paypal-stub";b.onclick=function(){o.createOrder().then(function(id){window.__paypalOrder=id;return o.onApprove({orderID:id})})};el.appendChild(b);return Promise.resolve()}}}};`;

export async function mockVendors(context: BrowserContext): Promise<Vendors> {
  const vendors: Vendors = { requests: [], batches: [], paypalDown: false };
  await context.route(
    (url) => url.hostname !== "localhost" && url.hostname !== "127.0.0.1",
    async (route) => {
      const request = route.request();
      vendors.requests.push(request);
      const url = new URL(request.url());
      if (url.hostname === "api.eu.amplitude.com" || url.hostname === "api2.amplitude.com") {
        // The SDK gzips its batches (Content-Encoding: gzip).
        const raw = request.postDataBuffer() ?? Buffer.alloc(0);
        const gz = (await request.allHeaders())["content-encoding"] === "gzip";
        const body = JSON.parse((gz ? gunzipSync(raw) : raw).toString("utf8"));
        vendors.batches.push({ url: request.url(), body });
        return route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({ code: 200, events_ingested: body?.events?.length ?? 0 }),
        });
      }
      if (url.hostname === "sr-client-cfg.eu.amplitude.com") {
        return route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({ configs: { sessionReplay: { sr_sampling_config: { capture_enabled: true, sample_rate: 1 } } } }),
        });
      }
      if (url.hostname.endsWith("amplitude.com")) return route.fulfill({ status: 200, contentType: "application/json", body: "{}" });
      if (url.hostname === "www.googletagmanager.com")
        return route.fulfill({ status: 200, contentType: "application/javascript", body: GTM_STUB });
      if (url.hostname === "challenges.cloudflare.com" && url.pathname === "/turnstile/v0/api.js") {
        return route.fulfill({ status: 200, contentType: "application/javascript", body: TURNSTILE_STUB });
      }
      if (url.hostname === "tiles.maps.example") return route.fulfill({ status: 200, contentType: "image/png", body: PNG_1PX });
      if (url.hostname === "www.paypal.com" && url.pathname === "/sdk/js") {
        return vendors.paypalDown
          ? route.abort("connectionrefused")
          : route.fulfill({ status: 200, contentType: "application/javascript", body: PAYPAL_STUB });
      }
      return route.abort("blockedbyclient");
    },
  );
  return vendors;
}

export const hosts = (requests: Request[]) => [...new Set(requests.map((r) => new URL(r.url()).hostname))];
