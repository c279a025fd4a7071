/**
 * The shop's own address never comes from the request: a forged Host is refused before anything is
 * built from it, and the server never sends a request to a host a request named.
 */
import { request as httpRequest } from "node:http";
import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentTransactions, webhookEvents } from "#api/db/schema";
import { allowedHosts, parseHostHeader } from "#api/hosts";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { expectSpanish, makeOption, newEmail, sandboxAction, sessionFor } from "./_helpers";

let api: TestApi;
let pinned: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  pinned = await startTestApi({ env: { PUBLIC_URL: "https://tienda.example", PAYMENT_PROVIDER: "sandbox", MAIL_TO_FILES: "1" } });
}, 180_000);
afterAll(async () => {
  await api.close();
  await pinned.close();
});

/** A raw HTTP call with exactly the Host (and other headers) given: fetch would not allow it. */
function raw(target: TestApi, path: string, headers: Record<string, string>, body?: unknown) {
  const { port } = new URL(target.origin);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: `/api/v0${path}`,
        method: body === undefined ? "GET" : "POST",
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("the allow-list", () => {
  it("defaults to loopback, this machine's name and its interface addresses; ALLOWED_HOSTS replaces it; PUBLIC_URL's host joins", () => {
    const defaults = allowedHosts({});
    for (const h of ["localhost", "127.0.0.1", "::1", hostname().toLowerCase()]) expect(defaults.has(h)).toBe(true);
    const custom = allowedHosts({ ALLOWED_HOSTS: "ofertas.lan, 192.168.1.20" });
    expect([...custom].sort()).toEqual(["127.0.0.1", "192.168.1.20", "::1", "localhost", "ofertas.lan"]);
    const pinnedHosts = allowedHosts({ PUBLIC_URL: "https://ofertas.es" });
    expect([...pinnedHosts].sort()).toEqual(["127.0.0.1", "::1", "localhost", "ofertas.es"]);
  });

  it("parses Host headers strictly", () => {
    expect(parseHostHeader("LocalHost:3000")).toBe("localhost");
    expect(parseHostHeader("[::1]:80")).toBe("::1");
    expect(parseHostHeader("ofertas.es.")).toBe("ofertas.es");
    for (const bad of ["a b", "", "x:99999", "evil.com/path", "a@b", "[zz]", "ofertas.es:80:80", "ñ.es"])
      expect(parseHostHeader(bad), bad).toBeNull();
  });
});

describe("requests for other hosts", () => {
  it("a foreign Host gets an uncacheable Spanish 400, on every route", async () => {
    for (const path of [
      "/public/offers/?page_size=1",
      "/public/offers/mainpage/",
      "/sandbox/checkout/00000000-0000-4000-8000-000000000000/",
    ]) {
      const r = await raw(api, path, { Host: "evil.example" });
      expect(r.status, path).toBe(400);
      expect(r.headers["cache-control"]).toBe("no-store");
      expectSpanish(r.text);
    }
  });

  it("a malformed Host is a 400, not a 500", async () => {
    const r = await raw(api, "/public/offers/", { Host: "a b" });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/Host no es válida/);
  });

  it("a forged X-Forwarded-Host through the trusted proxy is refused too", async () => {
    const r = await raw(api, "/public/offers/?page_size=1", { Host: "localhost", "X-Forwarded-Host": "evil.example" });
    expect(r.status).toBe(400);
  });

  it("next links name no host at all: the same relative path whatever the Host or PUBLIC_URL", async () => {
    const { port } = new URL(api.origin);
    const ok = await raw(api, "/public/offers/?page_size=1", { Host: `localhost:${port}` });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).next).toBe("/api/v0/public/offers/?page_size=1&page=2");
    const viaPublic = await raw(pinned, "/public/offers/?page_size=1", { Host: "127.0.0.1" });
    expect(JSON.parse(viaPublic.text).next).toBe("/api/v0/public/offers/?page_size=1&page=2");
  });

  it("a forged Host cannot set the payment return URLs", async () => {
    const option = await makeOption(api, { available: 5 });
    const token = await sessionFor(api, [{ option }], newEmail("host"));
    const forged = await raw(api, "/sales/create/", { Host: "evil.example" }, { session_token: token });
    expect(forged.status).toBe(400);
    const { port } = new URL(api.origin);
    const ours = await raw(api, "/sales/create/", { Host: `localhost:${port}` }, { session_token: token });
    expect(ours.status).toBe(201);
    const payment = JSON.parse(ours.text).payment;
    const [tx] = await api.db.select().from(paymentTransactions).where(eq(paymentTransactions.id, payment.transaction_id));
    expect(tx.returnUrl).toBe(`http://localhost:${port}/order/success?transaction_id=${payment.transaction_id}`);
  });
});

describe("the sandbox's signed webhook", () => {
  it("goes to this server itself, not to the host of the return URL", async () => {
    // PUBLIC_URL names a host that does not exist here: before, the webhook was sent there.
    const option = await makeOption(pinned, { available: 5 });
    const token = await sessionFor(pinned, [{ option }], newEmail("webhook"));
    const created = await raw(pinned, "/sales/create/", {}, { session_token: token });
    expect(created.status).toBe(201);
    const payment = JSON.parse(created.text).payment;
    expect(payment.redirect_url).toMatch(/^https:\/\/tienda\.example\//);
    // The buyer's browser would open that page; here we post to the same path on the test server.
    const local = { ...payment, redirect_url: payment.redirect_url.replace("https://tienda.example", pinned.origin) };
    const paid = await sandboxAction(local, "pay");
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/^https:\/\/tienda\.example\/order\/success/);
    const events = await pinned.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, `evt_payment.completed_${payment.transaction_id}`));
    expect(events).toHaveLength(1);
  });
});

describe("the sandbox payment page's own form", () => {
  it("refuses a post from another site or an opaque origin, and accepts its own", async () => {
    const option = await makeOption(api, { available: 5 });
    const token = await sessionFor(api, [{ option }], newEmail("sandbox-csrf"));
    const { port } = new URL(api.origin);
    const created = await raw(api, "/sales/create/", { Host: `localhost:${port}` }, { session_token: token });
    const payment = JSON.parse(created.text).payment;
    const page = new URL(payment.redirect_url).pathname;
    const foreign: Record<string, string>[] = [{ "Sec-Fetch-Site": "cross-site" }, { Origin: "null" }, { Origin: "https://evil.example" }];
    for (const headers of foreign) {
      const r = await fetch(`${api.origin}${page}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "action=pay",
        redirect: "manual",
      });
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
    const [tx] = await api.db.select().from(paymentTransactions).where(eq(paymentTransactions.id, payment.transaction_id));
    expect(tx.status).toBe("created");
    const ours = await fetch(`${api.origin}${page}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: "action=cancel",
      redirect: "manual",
    });
    expect(ours.status).toBe(303);
  });
});
