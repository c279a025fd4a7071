# syntax=docker/dockerfile:1
# The shop's production image. Build: docker build -t ofertas .   Try the production shape:
# docker compose up (compose.yaml). docs/deploy.md says how to run it for real.

# --- build: install with the committed lock, build, drop the dev dependencies -------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
# The same steps CI runs in a clean copy (scripts/production-shape.sh).
RUN bash scripts/container-build.sh

# --- run: the build and the production dependencies only, as an unprivileged user ---------------
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=1
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin ofertas \
 && mkdir -p /data && chown ofertas /data && chmod 700 /data
# The pruned tree as the build left it (what scripts/production-shape.sh serves), owned by root:
# the server's user reads it and writes only DATA_DIR.
COPY --from=build --chown=root:root /app /app
USER ofertas
# DATA_DIR: the embedded database when there is no DATABASE_URL, mail files with no SMTP_URL.
VOLUME ["/data"]
EXPOSE 3000
# Alive: the process answers. Not /readyz: a database outage must not make an orchestrator that
# restarts unhealthy containers restart every replica; the load balancer asks /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${PORT}/healthz" || exit 1
# The flags of `npm start`, without npm in between: SIGTERM reaches Node, which drains (exit 0).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--v8-pool-size=1", "--liftoff-only", "build/node/server.js"]
