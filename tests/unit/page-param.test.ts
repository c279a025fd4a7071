import { describe, expect, it } from "vitest";
import { loadPage, pageParam, redirectPastLastPage } from "#app/forms/page-param";

const request = (path: string) => new Request(`http://localhost${path}`);

function locationOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    return (thrown as Response).headers.get("Location");
  }
}

describe("pageParam", () => {
  it.each([
    ["/x", 1],
    ["/x?page=3", 3],
    ["/x?page=0", 1],
    ["/x?page=2.5", 1],
    ["/x?page=abc", 1],
    ["/x?page=99999999", 1],
  ])("%s → %i", (path, page) => expect(pageParam(new URL(`http://localhost${path}`))).toBe(page));
});

describe("redirectPastLastPage", () => {
  it("lets a page within the list through", () => {
    expect(locationOf(() => redirectPastLastPage(request("/admin?page=2"), 2, 51, 50))).toBeNull();
    expect(locationOf(() => redirectPastLastPage(request("/admin"), 1, 0, 50))).toBeNull();
  });
  it("sends a page past the end to the last page, keeping the other parameters", () => {
    expect(locationOf(() => redirectPastLastPage(request("/admin/organizaciones?search=bar&page=3"), 3, 60, 50))).toBe(
      "/admin/organizaciones?search=bar&page=2",
    );
  });
  it("sends it to the bare path when the last page is the first, and an emptied list there too", () => {
    expect(locationOf(() => redirectPastLastPage(request("/socios/ofertas?page=2"), 2, 50, 50))).toBe("/socios/ofertas");
    expect(locationOf(() => redirectPastLastPage(request("/socios/ofertas?page=2"), 2, 0, 50))).toBe("/socios/ofertas");
  });
});

describe("loadPage", () => {
  it("fetches the page the URL asks for, at the list's page size, and says which it is", async () => {
    const asked: unknown[] = [];
    const answer = await loadPage(request("/admin/solicitudes?page=2"), 24, async (q) => (asked.push(q), { count: 30, results: ["x"] }));
    expect(asked).toEqual([{ page: 2, page_size: 24 }]);
    expect(answer).toEqual({ count: 30, results: ["x"], page: 2 });
  });
  it("redirects past the end to the last page", async () => {
    const thrown = await loadPage(request("/admin/solicitudes?page=5"), 24, async () => ({ count: 30, results: [] })).catch(
      (r: unknown) => r,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/admin/solicitudes?page=2");
  });
});
