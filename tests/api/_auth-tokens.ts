/** The token tests' API, and how they log in and read a token. */
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";

export function withTokenApi(): void {
  // No grace window: a replayed refresh token is reuse at once.
  withFileApi({ env: { JWT_REFRESH_REUSE_GRACE_SECONDS: "0" } });
}

export const auth = (token: string) => ({ Authorization: `JWT ${token}` });
export const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  call(api, "/auth/jwt/create/", { body: { email, password }, headers });
/** The session an access token belongs to (its sid claim). */
export const sessionOf = (access: string): string => JSON.parse(Buffer.from(access.split(".")[1], "base64url").toString()).sid;
