// @vitest-environment node
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { publicOffersRoutes } from "#contract/public-offers";
import { salesRoutes } from "#contract/sales";

let call: typeof import("#app/api-client/client.server").call;
beforeAll(async () => {
  process.env.SESSION_SECRET = "unit-test-secret-0123456789abcdef";
  process.env.API_URL = "http://api.internal/api/v0";
  ({ call } = await import("#app/api-client/client.server"));
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
    await call(salesRoutes.create, { body: { session_token: "tok" }, request });
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
    const failure = call(publicOffersRoutes.get, { params: { id: "abc" } });
    await expect(failure).rejects.toThrow(/GET \/public\/offers\/:id\/ no cumple el contrato/);
    await expect(call(publicOffersRoutes.get, { params: { id: "abc" } })).rejects.toThrow(/title: /);
  });

  it("builds the path from the route's declaration, each parameter encoded", async () => {
    const fetchSpy = vi.fn(async () => Response.json({ uuid: "x" }));
    vi.stubGlobal("fetch", fetchSpy);
    await call(publicOffersRoutes.get, { params: { id: "a/b?c" } }).catch(() => {});
    expect(String((fetchSpy.mock.calls[0] as unknown as [URL])[0])).toBe("http://api.internal/api/v0/public/offers/a%2Fb%3Fc/");
  });
});
