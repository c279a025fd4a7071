import { z } from "zod";
import "#rules/zod-es";
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "#rules/constants";

/** The last of a repeated query value (`?page=1&page=2` is page 2), as most servers read it. */
export const lastOf = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);

/** A query value as zod should read it: the last of repeated ones, and an empty or blank text as absent. */
export const blank = (v: unknown) => {
  const value = lastOf(v);
  return typeof value === "string" && value.trim() === "" ? undefined : value;
};

/** `page` and `page_size` of a list the API answers a page at a time ({count, next, previous, results}). */
export const pageFields = {
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(PAGE_MAX).default(1)),
  page_size: z.preprocess(blank, z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT)),
};

export const PageQuerySchema = z.object(pageFields);
