#!/usr/bin/env bash
# The production shape, as the container runs it, in a clean copy of this commit: the install of
# scripts/container-build.sh (npm ci, build, prune), `npm run migrate` as the deploy step, then
# the server as the container starts it, a deployment on PostgreSQL with compose.yaml's staging
# rule (PUBLIC_URL http://localhost:PORT with DEPLOYMENT=1, secrets, the sandbox, TRUST_PROXY,
# MIGRATE_ON_START=0, the demo catalogue by DEMO_DATA=1, mail to files by MAIL_TO_FILES=1) as compose
# runs it: web processes (PROCESS_ROLE=web) and one worker, ready on /readyz, no demo staff, one
# purchase through the API whose payment page is on that address, the paid sale and its mail (sent
# by the worker) checked, and SIGTERM → exit 0 for both.
#
#   scripts/production-shape.sh            (SHAPE_ADMIN_URL: a PostgreSQL server to create the database on,
#                                           default postgres://postgres@127.0.0.1:55432/postgres; SHAPE_PORT)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/pinned-node.sh"
ADMIN_URL="${SHAPE_ADMIN_URL:-postgres://postgres@127.0.0.1:55432/postgres}"
PORT="${SHAPE_PORT:-3445}"
SHOP_HOST="localhost:$PORT"
WORK="$(mktemp -d /tmp/ofertas-production-shape.XXXXXX)"
SERVER_PID=""
WORKER_PID=""
CREATED_DB=""

step() { printf '\n=== %s (%ss)\n' "$1" "$SECONDS"; }
fail() {
  echo "production shape: $1" >&2
  [ -f "$WORK/server.log" ] && tail -n 40 "$WORK/server.log" >&2
  [ -f "$WORK/worker.log" ] && tail -n 20 "$WORK/worker.log" >&2
  exit 1
}

# One statement on PostgreSQL through the copy's own driver (the server's, kept by the prune);
# prints the first column of the first row.
sql() {
  (cd "$WORK/app" && node -e '
    const c = new (require("pg").Client)({ connectionString: process.argv[1] });
    c.connect().then(() => c.query(process.argv[2])).then((r) => { const row = r.rows[0]; if (row) console.log(Object.values(row).join("\t")); return c.end(); })
      .catch((e) => { console.error(e.message); process.exit(1); });' "$1" "$2")
}

cleanup() {
  local code=$?
  for pid in "$SERVER_PID" "$WORKER_PID"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  if [ -n "$CREATED_DB" ]; then sql "$ADMIN_URL" "DROP DATABASE IF EXISTS $CREATED_DB WITH (FORCE)" >/dev/null || true; fi
  rm -rf "$WORK"
  exit $code
}
trap cleanup EXIT INT TERM

step "a clean copy of $(git -C "$ROOT" rev-parse --short HEAD)"
git clone --quiet --no-hardlinks "$ROOT" "$WORK/app"
cd "$WORK/app"

step "scripts/container-build.sh (npm ci, build, prune)"
bash scripts/container-build.sh

CREATED_DB="ofertas_shape_$$_$RANDOM"
sql "$ADMIN_URL" "CREATE DATABASE $CREATED_DB" >/dev/null
export DATABASE_URL="${ADMIN_URL%/*}/$CREATED_DB"
export NODE_ENV=production PUBLIC_URL="http://$SHOP_HOST" DEPLOYMENT=1 SESSION_SECRET="shape-$(date +%s)-$RANDOM-newest,shape-older-secret-0123456789"
export PAYMENT_PROVIDER=sandbox TRUST_PROXY=loopback DEMO_DATA=1 MIGRATE_ON_START=0 MAIL_TO_FILES=1
export PORT HOST=127.0.0.1 DATA_DIR="$WORK/data" WEB_CONCURRENCY=2

step "npm run migrate (the deploy step) in the pruned install"
npm run --silent migrate | cut -c1-160

step "the server as the container starts it (CMD), a deployment, port $PORT, 2 web processes and a worker"
# Node itself, as the image's CMD (npm run serve would exec the same). The worker as compose runs
# it: its own port, probes and metrics only, the mail and the sweeps.
PROCESS_ROLE=worker PORT=$((PORT + 1)) WEB_CONCURRENCY=1 MALLOC_ARENA_MAX=1 \
  node --enable-source-maps --max-semi-space-size=8 --v8-pool-size=1 --liftoff-only build/node/server.js >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
for _ in $(seq 1 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$((PORT + 1))/readyz" 2>/dev/null && break
  kill -0 "$WORKER_PID" 2>/dev/null || fail "the worker stopped before /readyz answered 200"
  sleep 0.5
done
grep -q '"role":"worker"' "$WORK/worker.log" || fail "the worker did not start as PROCESS_ROLE=worker"
PROCESS_ROLE=web MALLOC_ARENA_MAX=1 node --enable-source-maps --max-semi-space-size=8 --v8-pool-size=1 --liftoff-only build/node/server.js >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
ready=""
# Each process answers its own /readyz and the primary hands connections round-robin: four 200s in
# a row mean every process is ready, not just the first one up.
streak=0
for _ in $(seq 1 240); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/readyz" 2>/dev/null; then streak=$((streak + 1)); else streak=0; fi
  if [ "$streak" -ge 4 ]; then ready=1 && break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || fail "the server stopped before /readyz answered 200"
  [ "$streak" -gt 0 ] && continue
  sleep 0.5
done
[ -n "$ready" ] || fail "/readyz never answered 200"
page="$(curl -fsS -H "Host: $SHOP_HOST" "http://127.0.0.1:$PORT/")" || fail "the home page did not answer"
grep -q "Modo de pruebas: no se cobra nada" <<<"$page" || fail "the home page lacks the staging notice"
# A loopback address with DEPLOYMENT=1 is a deployment: the README's demo staff does not exist.
staff="$(curl -sS -o /dev/null -w '%{http_code}' -H "Host: $SHOP_HOST" -H 'Content-Type: application/json' \
  -d '{"email":"staff@ofertas.es","password":"ofertas-demo-2026"}' "http://127.0.0.1:$PORT/api/v0/auth/jwt/create/")"
[ "$staff" != 200 ] || fail "the demo staff account logs in on a deployment"

step "one purchase through the API (validate, create, sandbox pay, capture)"
option="$(sql "$DATABASE_URL" "SELECT p.id, p.actual_price FROM price_options p JOIN offers o ON o.id = p.offer_id
  WHERE o.status = 'active' AND (o.valid_until IS NULL OR o.valid_until >= current_date) AND p.available > 5
  ORDER BY o.rank, p.position LIMIT 1")"
[ -n "$option" ] || fail "no demo offer to buy (DEMO_DATA=1)"
email="comprador.$$@correo.example"
sale="$(node scripts/production-purchase.mjs "http://127.0.0.1:$PORT" "$PUBLIC_URL" "${option%%$'\t'*}" "${option##*$'\t'}" "$email")" ||
  fail "the purchase failed"
[ "$(sql "$DATABASE_URL" "SELECT status FROM sales WHERE id = '$sale'")" = paid ] || fail "sale $sale is not paid"
coupons="$(sql "$DATABASE_URL" "SELECT count(*) FROM coupons c JOIN sale_items i ON i.id = c.sale_item_id WHERE i.sale_id = '$sale'")"
[ "$coupons" -ge 1 ] || fail "sale $sale has no coupon"
echo "sale $sale paid, $coupons coupon(s)"

step "the buyer's mail, sent by the worker (MAIL_TO_FILES=1: .eml files under DATA_DIR/mail/, 0600)"
mail=""
for _ in $(seq 1 60); do
  mail="$(grep -rl "$email" "$DATA_DIR/mail" 2>/dev/null | head -n 1 || true)"
  [ -n "$mail" ] && break
  sleep 1
done
[ -n "$mail" ] || fail "no mail to $email"
grep -q "^Subject:.*" "$mail" || fail "the mail has no subject"
echo "mail: $(grep -m1 '^Subject:' "$mail")"

step "npm run digest in the pruned install, beside the running server"
npm run --silent digest | grep -q "^Boletín " || fail "npm run digest did not queue the digest"

grep -q '"msg":"PROCESS_ROLE=web: ninguna tarea de fondo."' "$WORK/server.log" || fail "the web processes run jobs"

step "SIGTERM: the web processes and the worker drain and exit 0"
kill -TERM "$SERVER_PID" "$WORKER_PID"
set +e
wait "$SERVER_PID"
code=$?
wait "$WORKER_PID"
worker_code=$?
set -e
SERVER_PID=""
WORKER_PID=""
[ "$code" -eq 0 ] || fail "the server exited with $code after SIGTERM"
[ "$worker_code" -eq 0 ] || fail "the worker exited with $worker_code after SIGTERM"

step "ok: the production shape installs, migrates, serves, sells and stops"
