/**
 * What the offline worker keeps and for whom (app/offline/keep.ts): only a buyer's coupons page
 * and its PDF, only answers that allow a private cache, dropped when someone else is seen; and the
 * offline page as the server renders it, filled in with the purchases kept.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { assetsOf, keepable, keptPurchase, mustDrop, offlinePageWith } from "#app/offline/keep";
import Offline from "#app/routes/sin-conexion/route";

const ORIGIN = "https://ofertas.es";
const SALE = "7a1c2f0e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const at = (path: string) => new URL(path, ORIGIN);

describe("the addresses kept", () => {
  it("are a purchase's coupons page and its PDF, by their signed links", () => {
    expect(keptPurchase(at(`/order/coupons?sale=${SALE}&sig=abc`), ORIGIN)).toEqual({ kind: "page", sale: SALE });
    expect(keptPurchase(at(`/order/coupon-pdf?sale=${SALE.toUpperCase()}&sig=abc`), ORIGIN)).toEqual({ kind: "pdf", sale: SALE });
  });

  it("are nothing else: no other page, no unsigned or malformed link, no other site", () => {
    for (const path of [
      `/order/coupons?sale=${SALE}`,
      `/order/coupons?sale=${SALE}&sig=`,
      `/order/coupons?sale=nope&sig=abc`,
      `/order/history?sale=${SALE}&sig=abc`,
      `/order/coupons.data?sale=${SALE}&sig=abc`,
      `/api/v0/sales/purchase/${SALE}/vouchers.pdf?sig=abc`,
      "/",
      "/cuenta",
    ])
      expect(keptPurchase(at(path), ORIGIN), path).toBeNull();
    expect(keptPurchase(new URL(`https://otra.example/order/coupons?sale=${SALE}&sig=abc`), ORIGIN)).toBeNull();
  });
});

describe("the answers kept", () => {
  const answer = (cacheControl: string | null, { ok = true, type = "basic" } = {}) => ({
    ok,
    type,
    headers: { get: (name: string) => (name.toLowerCase() === "cache-control" ? cacheControl : null) },
  });

  it("are marked for one person: the coupons page and the PDF say private, no-store", () => {
    expect(keepable(answer("private, no-store"))).toBe(true);
    expect(keepable(answer("Private, max-age=0"))).toBe(true);
  });

  it("never a shared or unmarked answer, an error, or another site's", () => {
    expect(keepable(answer("no-store"))).toBe(false);
    expect(keepable(answer("public, max-age=60"))).toBe(false);
    expect(keepable(answer(null))).toBe(false);
    expect(keepable(answer("private, no-store", { ok: false }))).toBe(false);
    expect(keepable(answer("private, no-store", { type: "opaque" }))).toBe(false);
  });
});

describe("who the kept coupons are for", () => {
  it("a change of account, a logout or a login over a guest's coupons drops them", () => {
    expect(mustDrop("cuenta-a", "cuenta-b")).toBe(true);
    expect(mustDrop("cuenta-a", "guest")).toBe(true);
    expect(mustDrop("guest", "cuenta-a")).toBe(true);
  });

  it("the same person, nothing kept yet, or an answer that says nobody keeps them", () => {
    expect(mustDrop("cuenta-a", "cuenta-a")).toBe(false);
    expect(mustDrop("guest", "guest")).toBe(false);
    expect(mustDrop(null, "cuenta-a")).toBe(false);
    expect(mustDrop("cuenta-a", null)).toBe(false);
  });
});

describe("the files kept with a page", () => {
  it("are its hashed /assets/ files, each once", () => {
    const html =
      '<link rel="stylesheet" href="/assets/root-AbC1.css"/><link rel="x-deferred-modulepreload" href="/assets/layout-Xy2.js"/>' +
      '<script type="text/x-deferred-module" src="/assets/layout-Xy2.js"></script><img src="/demo/spa.webp"/><svg><use href="/assets/sprite-Q9.svg#cart"></use></svg>';
    expect(assetsOf(html)).toEqual(["/assets/root-AbC1.css", "/assets/layout-Xy2.js", "/assets/sprite-Q9.svg"]);
  });
});

describe("the offline page", () => {
  const served = renderToStaticMarkup(createElement(Offline));

  it("as the server renders it: «Mis cupones» to the order history, nothing kept listed", () => {
    expect(offlinePageWith(served, [])).toBe(served);
    expect(served).toContain('href="/order/history"');
    expect(served).toMatch(/<ul data-kept-list="" hidden=""/);
  });

  it("with purchases kept here: «Mis cupones» opens the newest, and each is listed by its order number", () => {
    const newest = { url: `/order/coupons?sale=${SALE}&sig=a%26b`, sale: SALE };
    const older = { url: "/order/coupons?sale=0f1e2d3c-4b5a-4968-8776-655443322110&sig=c", sale: "0f1e2d3c-4b5a-4968-8776-655443322110" };
    const page = offlinePageWith(served, [newest, older]);
    expect(page).toContain(`data-kept-link="" href="/order/coupons?sale=${SALE}&amp;sig=a%26b"`);
    expect(page).not.toContain('href="/order/history"');
    expect(page).toMatch(/<p data-kept-none="" hidden=""/);
    expect(page).not.toMatch(/<ul data-kept-list="" hidden=""/);
    expect(page).toContain("Cupones del pedido nº 7A1C2F0E</a>");
    expect(page).toContain("Cupones del pedido nº 0F1E2D3C</a>");
  });
});
