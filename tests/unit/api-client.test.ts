// @vitest-environment node
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { OfferDetailSchema } from "#contract/offers";
import { PaymentAnswerSchema } from "#contract/sales";

let api: typeof import("#app/api-client/client.server").api;
beforeAll(async () => {
  process.env.SESSION_SECRET = "unit-test-secret-0123456789abcdef";
  process.env.API_URL = "http://api.internal/api/v0";
  ({ api } = await import("#app/api-client/client.server"));
});
afterEach(() => vi.unstubAllGlobals());

describe("the storefront's API client", () => {
  it("tells the API the host and scheme Express resolved, never the ones a client typed", async () => {
    const payment = { sale_id: "s", transaction_id: "t", provider: "sandbox", flow: "hosted", redirect_url: "/pay", provider_ref: null };
    const fetchSpy = vi.fn(async () => Response.json({ payment }));
    vi.stubGlobal("fetch", fetchSpy);
    // request.url is what Express made of the request, honouring forwarded headers only from a
    // trusted proxy; these raw headers came from the client and must not reach the API.
    const request = new Request("https://shop.example/order/", {
      headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", "x-ofertas-client-ip": "203.0.113.5" },
    });
    await api("/sales/create/", PaymentAnswerSchema, { method: "POST", body: {}, request });
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe("http://api.internal/api/v0/sales/create/");
    const headers = init.headers as Record<string, string>;
    expect(headers["X-Forwarded-Host"]).toBe("shop.example");
    expect(headers["X-Forwarded-Proto"]).toBe("https");
    expect(headers["X-Forwarded-For"]).toBe("203.0.113.5");
    expect(headers["Accept-Language"]).toBe("es");
    // Loopback JSON is not worth compressing: gzip here was the top cost of a page under load.
    expect(headers["Accept-Encoding"]).toBe("identity");
  });

  it("refuses an answer that does not fit the contract, naming the route and the field", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ uuid: "x", title: 3 }));
    const failure = api("/public/offers/abc/", OfferDetailSchema);
    await expect(failure).rejects.toThrow(/GET \/public\/offers\/:id\/ no cumple el contrato/);
    await expect(api("/public/offers/abc/", OfferDetailSchema)).rejects.toThrow(/title: /);
  });

  it("refuses a schema that is not the route's own in contract/routes.ts", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ payment: {} }));
    await expect(api("/public/offers/abc/", PaymentAnswerSchema)).rejects.toThrow(/otro esquema/);
  });
});
