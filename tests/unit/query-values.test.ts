import { describe, expect, it } from "vitest";
import { blank, lastOf, PageQuerySchema } from "#contract/page";

describe("query values as the API's schemas read them", () => {
  it("takes the last of a repeated value", () => {
    expect(lastOf(["1", "3"])).toBe("3");
    expect(lastOf("2")).toBe("2");
    expect(blank(["restaurants", "spa"])).toBe("spa");
  });
  it("reads an empty or blank text as absent, and leaves anything else", () => {
    for (const absent of ["", "   ", ["x", ""], [" "]]) expect(blank(absent), JSON.stringify(absent)).toBeUndefined();
    expect(blank("0")).toBe("0");
    expect(blank(3)).toBe(3);
    expect(blank(undefined)).toBeUndefined();
  });
  it("gives a blank page its default, and refuses a page that is not a number", () => {
    expect(PageQuerySchema.parse({ page: " ", page_size: "" })).toEqual({ page: 1, page_size: 24 });
    expect(PageQuerySchema.safeParse({ page: "dos" }).success).toBe(false);
  });
});
