import { describe, expect, it } from "vitest";
import { RECENT_SEARCHES_MAX } from "#rules/constants";
import { backTo, safeRedirect } from "#app/forms/redirect";
import { addRecentSearch, type RecentSearch } from "#app/state/session.server";

const search = (n: number, title = `Oferta ${n}`): RecentSearch => ({
  uuid: `${String(n).padStart(8, "0")}-1111-4222-8333-444455556666`,
  title,
});

describe("addRecentSearch (spec 3 and 9: newest first, at most 4, no repeats by uuid)", () => {
  it("puts the newest search first", () => {
    expect(addRecentSearch([], search(1))).toEqual([search(1)]);
    expect(addRecentSearch([search(1)], search(2))).toEqual([search(2), search(1)]);
  });

  it("keeps at most four, dropping the oldest", () => {
    expect(RECENT_SEARCHES_MAX).toBe(4);
    let list: RecentSearch[] = [];
    for (const n of [1, 2, 3, 4, 5, 6]) list = addRecentSearch(list, search(n));
    expect(list).toEqual([search(6), search(5), search(4), search(3)]);
  });

  it("a search already in the list moves to the top instead of repeating", () => {
    const list = [search(3), search(2), search(1)];
    const next = addRecentSearch(list, search(1, "Oferta 1, título nuevo"));
    expect(next).toEqual([search(1, "Oferta 1, título nuevo"), search(3), search(2)]);
    expect(new Set(next.map((r) => r.uuid)).size).toBe(next.length);
  });

  it("re-adding the newest search changes nothing but its title", () => {
    const list = [search(4), search(3), search(2), search(1)];
    expect(addRecentSearch(list, search(4))).toEqual(list);
  });

  it("moving a repeated search up keeps the other three when the list is full", () => {
    const list = [search(4), search(3), search(2), search(1)];
    expect(addRecentSearch(list, search(2))).toEqual([search(2), search(4), search(3), search(1)]);
  });

  it("does not mutate the list it was given", () => {
    const list = [search(2), search(1)];
    addRecentSearch(list, search(3));
    expect(list).toEqual([search(2), search(1)]);
  });
});

describe("safeRedirect (only local paths)", () => {
  it.each(["/", "/x", "/checkout", "/ofertas/?page=2#top", "/ofertas/category/travel/"])("accepts %j", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });

  it.each([
    "//evil.com",
    "//evil.com/path",
    "https://evil.com",
    "http://evil.com/",
    "/\\evil.com",
    "/\\/evil.com",
    "javascript:alert(1)",
    "evil.com",
    "x",
    "",
  ])("rejects %j for the fallback", (to) => {
    expect(safeRedirect(to)).toBe("/");
    expect(safeRedirect(to, "/checkout")).toBe("/checkout");
  });

  it("rejects anything that is not a string", () => {
    expect(safeRedirect(null, "/f")).toBe("/f");
    expect(safeRedirect(undefined, "/f")).toBe("/f");
    expect(safeRedirect(new File(["x"], "x.txt"), "/f")).toBe("/f");
  });

  // Browsers (WHATWG URL parser) strip ASCII tab and newline characters from a URL before parsing, so
  // a Location of "/\t/evil.com" is followed as "//evil.com", another host. Header values may contain
  // tabs, so this string reaches the browser as it is. The oracle: whatever safeRedirect returns must
  // resolve to our own origin.
  it("every accepted target resolves to our own origin, even with a tab in it", () => {
    const origin = "https://ofertas.example";
    for (const to of ["/\t/evil.com", "/\\\t\\evil.com"]) {
      expect(new URL(safeRedirect(to), origin).origin).toBe(origin);
    }
  });

  // A newline is not a valid header value: redirect(safeRedirect("/\n/x")) throws while building the
  // Location header, so a crafted redirectTo turns a form post into a 500 instead of the fallback.
  it("every accepted target is a valid Location header value", () => {
    for (const to of ["/\n/evil.com", "/a\r\nSet-Cookie: x=1"]) {
      expect(() => new Headers({ Location: safeRedirect(to) })).not.toThrow();
    }
  });

  it("the accepted targets above all resolve to our own origin", () => {
    const origin = "https://ofertas.example";
    for (const to of ["/", "/x", "/ofertas/?page=2#top", "//evil.com", "/\\evil.com", "https://evil.com"]) {
      expect(new URL(safeRedirect(to), origin).origin).toBe(origin);
    }
  });
});

describe("backTo (where a plain form post returns to)", () => {
  const request = (referer?: string) =>
    new Request("https://ofertas.example/cart", { method: "POST", headers: referer ? { referer } : {} });
  const formWith = (redirectTo?: string) => {
    const data = new FormData();
    if (redirectTo !== undefined) data.set("redirectTo", redirectTo);
    return data;
  };

  it("prefers a safe redirectTo from the form", () => {
    expect(backTo(request("https://ofertas.example/favorite"), formWith("/checkout"))).toBe("/checkout");
  });

  it("an unsafe redirectTo gives the fallback, not the referer", () => {
    expect(backTo(request("https://ofertas.example/favorite"), formWith("//evil.com"), "/home")).toBe("/home");
    expect(backTo(request(), formWith("https://evil.com"))).toBe("/");
  });

  it("without redirectTo, uses a same-host referer's path and query", () => {
    expect(backTo(request("https://ofertas.example/ofertas/?category=travel&page=2"), formWith())).toBe("/ofertas/?category=travel&page=2");
    expect(backTo(request("https://ofertas.example/ofertas/"), null)).toBe("/ofertas/");
  });

  it("ignores a referer from another host", () => {
    expect(backTo(request("https://evil.com/ofertas/"), formWith(), "/fallback")).toBe("/fallback");
    expect(backTo(request("https://ofertas.example.evil.com/x"), formWith())).toBe("/");
    expect(backTo(request("https://ofertas.example:8443/x"), formWith())).toBe("/");
  });

  it("a same-host referer whose path looks protocol-relative is refused", () => {
    expect(backTo(request("https://ofertas.example//evil.com/x"), formWith(), "/f")).toBe("/f");
  });

  it("ignores a referer that is not a URL, and no referer at all", () => {
    expect(backTo(request("not a url"), formWith(), "/f")).toBe("/f");
    expect(backTo(request(), null, "/f")).toBe("/f");
  });
});
