import type { Request, RequestHandler } from "express";
import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { poolOf, type Database } from "#api/db/client";
import { HttpError } from "#api/http";
import { addressMatcher } from "#platform/config/addresses.server";

/**
 * Keyed rate limits for any handler, backed by rate-limiter-flexible.
 *
 *   import { limits } from "#api/rate-limit";
 *   await limits.consume("send-code:email:" + email, { points: 5, durationSec: 3600 });
 *
 * Over the limit, consume throws a 429 HttpError with a Spanish message and a Retry-After header.
 * A key names what is limited and whose it is ("promo:ip:1.2.3.4"); the same key with the same
 * window shares one counter wherever it is consumed.
 *
 * Where the counters live is a LimiterStore. PGlite has one owner process, so memory is exact there.
 * On PostgreSQL, where WEB_CONCURRENCY may run several processes, they live in the rate_limits
 * table (postgresStore); createApi picks the store with limiterStoreFor(db).
 */
export type LimiterStore = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

export type LimitOptions = {
  /** How many points fit in the window. */
  points: number;
  /** Window length in seconds. */
  durationSec: number;
  /** Points this call costs (default 1). */
  cost?: number;
  /** Spanish text of the 429; a generic one by default. */
  message?: string;
};

export const TOO_MANY_REQUESTS = "Demasiadas peticiones seguidas. Espera un momento y vuelve a intentarlo.";

export const memoryStore: LimiterStore = (options) => new RateLimiterMemory(options);

/**
 * Counters in the rate_limits table (migration 0006b), one row per key, updated with one atomic
 * upsert: every process of WEB_CONCURRENCY sees the same counts. If the database cannot answer,
 * a per-process memory limiter stands in (insurance) rather than failing the request.
 */
export function postgresStore(pool: pg.Pool): LimiterStore {
  return (options) =>
    new RateLimiterPostgres({
      ...options,
      storeClient: pool,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
}

/** Memory on PGlite (one owner process); the shared table on PostgreSQL, where several processes may run. */
export function limiterStoreFor(db: Database): LimiterStore {
  const pool = poolOf(db);
  return pool ? postgresStore(pool) : memoryStore;
}

export type Limits = {
  /** Counts `cost` points against key; throws the 429 when that goes over `points`. */
  consume(key: string, options: LimitOptions): Promise<void>;
  /** Points still left for key in that window (without consuming any). */
  remaining(key: string, options: Pick<LimitOptions, "points" | "durationSec">): Promise<number>;
  /** Forgets one key's count in that window (the owner proved who they are). */
  clear(key: string, options: Pick<LimitOptions, "points" | "durationSec">): Promise<void>;
  /** Swaps the store; counters start again from zero. */
  useStore(store: LimiterStore): void;
  /** Forgets every counter (tests). */
  reset(): void;
};

export function createLimits(store: LimiterStore = memoryStore): Limits {
  let current = store;
  // One limiter per window shape; the key prefix keeps shapes apart in a shared store.
  let limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = ({ points, durationSec }: Pick<LimitOptions, "points" | "durationSec">) => {
    const shape = `${points}x${durationSec}s`;
    let limiter = limiters.get(shape);
    if (!limiter) {
      limiter = current({ keyPrefix: `rl${shape}`, points, duration: durationSec });
      limiters.set(shape, limiter);
    }
    return limiter;
  };
  return {
    async consume(key, options) {
      try {
        await limiterFor(options).consume(key, options.cost ?? 1);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
          throw new HttpError(429, options.message ?? TOO_MANY_REQUESTS, {}, { "Retry-After": String(seconds) });
        }
        throw error;
      }
    },
    async remaining(key, options) {
      const res = await limiterFor(options).get(key);
      return res ? Math.max(0, res.remainingPoints) : options.points;
    },
    async clear(key, options) {
      await limiterFor(options).delete(key);
    },
    useStore(next) {
      current = next;
      limiters = new Map();
    },
    reset() {
      limiters = new Map();
    },
  };
}

/** The process's limits; createApi points it at the database's store. */
export const limits = createLimits();

/** The client's address as Express resolved it (forwarded headers only from a trusted proxy). */
export const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";

let exempt: (address: string) => boolean = () => false;

/**
 * Nothing is exempt from the per-address limits by its address alone: behind a proxy that sends
 * no X-Forwarded-For every buyer is the proxy's (often loopback) address. Only the addresses
 * RATE_LIMIT_EXEMPT names are (the tests and the bench on this machine; refused in a
 * deployment). createApi sets them from the configuration.
 */
export function exemptFromAddressLimits(entries: readonly string[]): void {
  exempt = addressMatcher(entries);
}

/** Whether the per-address limits skip this address (RATE_LIMIT_EXEMPT). */
export const isExemptAddress = (address: string): boolean => exempt(address);

/**
 * Middleware form: `name` keeps one route's counter apart from another's; the key is the client's
 * address unless `key` says otherwise.
 */
export function rateLimit(options: {
  name: string;
  windowMs: number;
  max: number;
  message: string;
  key?: (req: Request) => string;
  store?: Limits;
}): RequestHandler {
  const store = options.store ?? limits;
  const durationSec = Math.max(1, Math.round(options.windowMs / 1000));
  return (req, _res, next) => {
    const who = options.key ? options.key(req) : `ip:${clientAddress(req)}`;
    store.consume(`${options.name}:${who}`, { points: options.max, durationSec, message: options.message }).then(() => next(), next);
  };
}
