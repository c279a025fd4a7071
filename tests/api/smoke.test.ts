import { afterAll, beforeAll, expect, it } from "vitest";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

it("serves the seeded catalogue", async () => {
  const { status, body } = await call(api, "/public/offers/?page_size=2");
  expect(status).toBe(200);
  expect(body.count).toBeGreaterThanOrEqual(48);
  expect(body.results).toHaveLength(2);
});
