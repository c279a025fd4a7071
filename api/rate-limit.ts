import type { RequestHandler } from "express";

/**
 * Fixed-window limit per client address (req.ip, which honours forwarded headers only from the
 * trusted proxy). Kept in this process's memory: with several instances each one limits on its
 * own, which is enough to make guessing promo codes slow; it is not a quota.
 */
export function rateLimit(options: { windowMs: number; max: number; message: string }): RequestHandler {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return (req, res, next) => {
    const now = Date.now();
    const key = req.ip ?? "unknown";
    let entry = hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (hits.size > 10_000) for (const [k, v] of hits) if (v.resetAt <= now) hits.delete(k);
      entry = { count: 0, resetAt: now + options.windowMs };
      hits.set(key, entry);
    }
    entry.count += 1;
    if (entry.count > options.max) {
      res.set("Retry-After", String(Math.ceil((entry.resetAt - now) / 1000)));
      res.status(429).json({ detail: options.message });
      return;
    }
    next();
  };
}
