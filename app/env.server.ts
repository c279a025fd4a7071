import { loadConfig, type Config } from "#platform/config.server";

let cached: Config | undefined;

/** The validated environment, read once (server.ts already stopped on a bad value). */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
