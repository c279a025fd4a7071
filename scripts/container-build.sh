#!/usr/bin/env bash
# The production install, in the current directory: what the Dockerfile's build stage runs and
# what scripts/production-shape.sh runs in CI, so that both install the same way.
#   npm ci (the committed lock, as it is) → npm run build → npm prune --omit=dev
set -euo pipefail
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund
npm run build
npm prune --omit=dev --no-audit --no-fund
# Nothing that only builds is left for the server to need by mistake. (typescript stays: npm keeps
# it as an optional peer of @remix-run/node, and nothing at run time loads it.)
for tool in tsx @remix-run/dev vite esbuild; do
  if [ -e "node_modules/$tool" ]; then
    echo "a build tool is still installed: $tool" >&2
    exit 1
  fi
done
