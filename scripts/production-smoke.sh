#!/usr/bin/env bash
# The production install, in a clean copy of this commit: npm ci, npm run build, npm prune
# --omit=dev, then `npm run serve` as a deployment (PUBLIC_URL https://…, SESSION_SECRET,
# PAYMENT_PROVIDER) on PostgreSQL, and a page must answer. Nothing of the build tools is left.
#
#   scripts/production-smoke.sh [DATABASE_URL] [PORT]
#   (or SMOKE_DATABASE_URL / SMOKE_PORT; default: a new database on postgres://postgres@127.0.0.1:55432)
#
# With no DATABASE_URL given, a database is created for the run and dropped after it. The copy and
# the server are removed on exit, whatever happens.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/pinned-node.sh"
ADMIN_URL="${SMOKE_ADMIN_URL:-postgres://postgres@127.0.0.1:55432/postgres}"
DATABASE_URL="${1:-${SMOKE_DATABASE_URL:-}}"
PORT="${2:-${SMOKE_PORT:-3425}}"
WORK="$(mktemp -d /tmp/ofertas-production-smoke.XXXXXX)"
SERVER_PID=""
CREATED_DB=""

step() { printf '\n=== %s (%ss)\n' "$1" "$SECONDS"; }

# psql when there is one, else the copy's own pg driver (kept by the prune: the server needs it).
sql() {
  if command -v psql >/dev/null; then
    psql -q -v ON_ERROR_STOP=1 "$ADMIN_URL" -c "$1"
  else
    (cd "$WORK/app" && node -e 'const c=new (require("pg").Client)({connectionString:process.argv[1]});c.connect().then(()=>c.query(process.argv[2])).then(()=>c.end()).catch(e=>{console.error(e.message);process.exit(1)})' "$ADMIN_URL" "$1")
  fi
}

cleanup() {
  local code=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  if [ -n "$CREATED_DB" ]; then sql "DROP DATABASE IF EXISTS $CREATED_DB WITH (FORCE)" || true; fi
  rm -rf "$WORK"
  exit $code
}
trap cleanup EXIT INT TERM

step "a clean copy of $(git -C "$ROOT" rev-parse --short HEAD)"
git clone --quiet --no-hardlinks "$ROOT" "$WORK/app"
cd "$WORK/app"

step "npm ci"
npm ci --no-audit --no-fund

step "npm run build"
npm run build

step "npm prune --omit=dev"
npm prune --omit=dev --no-audit --no-fund
# (typescript stays: the @remix-run runtime packages declare it as a peer, and npm installs peers.)
for tool in tsx @remix-run/dev vite esbuild; do
  if [ -e "node_modules/$tool" ]; then echo "a build tool is still installed: $tool" >&2; exit 1; fi
done

if [ -z "$DATABASE_URL" ]; then
  CREATED_DB="ofertas_smoke_$$_$RANDOM"
  sql "CREATE DATABASE $CREATED_DB"
  DATABASE_URL="${ADMIN_URL%/*}/$CREATED_DB"
fi

step "npm run serve as a deployment on PostgreSQL, port $PORT"
export PUBLIC_URL="https://tienda.example" SESSION_SECRET="production-smoke-$(date +%s)-$RANDOM-secret"
export PAYMENT_PROVIDER=sandbox MAIL_TO_FILES=1 DATABASE_URL PORT HOST=127.0.0.1 DATA_DIR="$WORK/data"
npm run serve >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 120); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/api/v0/public/offers/" 2>/dev/null; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then cat "$WORK/server.log" >&2; echo "the server stopped" >&2; exit 1; fi
  sleep 1
done
page="$(curl -fsS -H "Host: tienda.example" "http://127.0.0.1:$PORT/")" || { cat "$WORK/server.log" >&2; exit 1; }
grep -q "Modo de pruebas: no se cobra nada" <<<"$page" || { echo "the home page lacks the sandbox notice" >&2; exit 1; }
grep -q '<html lang="es"' <<<"$page" || { echo "the home page is not the storefront" >&2; exit 1; }

step "npm run staff:create in the pruned install"
npm run --silent staff:create -- --email jefa@tienda.example

step "ok: the production install serves"
