# Sourced by the operator scripts: the Node that package.json pins (the `node` devDependency, the
# same major as the Dockerfile's image) first on PATH, as npm puts it for its own scripts. The
# machine's own node may be older; a production install without it (pruned) uses the system one.
#   . "$ROOT/scripts/pinned-node.sh"
if [ -x "$ROOT/node_modules/.bin/node" ]; then
  PATH="$ROOT/node_modules/.bin:$PATH"
  export PATH
fi
node -e '
  const [major] = process.versions.node.split(".").map(Number);
  if (major < 22) { console.error(`Node ${process.version}: ofertas needs Node 22 or 24 (npm install brings the pinned one).`); process.exit(1); }
  console.log(`Node ${process.version}`);'
