-- Rate-limit counters shared by every process on PostgreSQL (api/rate-limit.ts, postgresStore).
-- The layout rate-limiter-flexible's RateLimiterPostgres expects; created here, not by the library
-- at run time, so the app needs no CREATE privilege once migrated. expire is epoch milliseconds.
CREATE TABLE IF NOT EXISTS rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
