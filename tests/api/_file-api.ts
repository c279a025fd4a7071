/**
 * A test file's own /api/v0 on a fresh database, for files whose helpers call it too: the helpers
 * and the tests read the same `api`, started before the file's tests and closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { startTestApi, type TestApi } from "#tests/support/api-server";

export let api: TestApi;

export function withFileApi(options?: Parameters<typeof startTestApi>[0]): void {
  beforeAll(async () => {
    api = await startTestApi(options);
  });
  afterAll(() => api.close());
}
