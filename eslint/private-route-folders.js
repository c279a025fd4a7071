import path from "node:path";

/**
 * A route folder is a private room (docs/architecture.md, «Route folders»): a module under
 * app/routes/<folder>/ imports from no other route folder but its family's shared one,
 * app/routes/<family>+shared/, where <family> is a leading run of the folder's dot segments
 * (login+shared serves login, login_.registro and login_.social.$provider.callback). A module of
 * app/ outside app/routes/ imports no route folder at all: routes build on the role folders, never
 * the other way round. What several families use belongs in its role folder.
 */
const ROUTES = "app/routes/";
const SHARED = "+shared";

/** A folder's dot segments, without the trailing _ that only takes a route out of its parent's layout. */
const segments = (folder) => folder.split(".").map((s) => s.replace(/_$/, ""));

/** The route folder a repository path lies in, or null. */
function routeFolder(relative) {
  if (!relative.startsWith(ROUTES)) return null;
  const rest = relative.slice(ROUTES.length);
  const slash = rest.indexOf("/");
  return slash > 0 ? rest.slice(0, slash) : null;
}

/** Whether a module in folder `from` (null: elsewhere in app/) may import from route folder `to`. */
export function mayImport(from, to) {
  if (from === to) return true;
  if (from === null || !to.endsWith(SHARED)) return false;
  const family = segments(to.slice(0, -SHARED.length));
  const own = segments(from.endsWith(SHARED) ? from.slice(0, -SHARED.length) : from);
  return family.length <= own.length && family.every((s, i) => s === own[i]);
}

export const privateRouteFolders = {
  meta: {
    type: "problem",
    docs: { description: "A route folder imports no other route folder but its family's +shared folder." },
    schema: [],
    messages: {
      foreign:
        "{{to}} belongs to another route: move what several route families use to its role folder (#app/forms/, #app/state/, #app/catalogue/, #app/components/…), and what one family shares to app/routes/<family>+shared/.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join("/");
    if (!file.startsWith("app/")) return {};
    const from = routeFolder(file);
    const check = (source) => {
      if (!source || typeof source.value !== "string") return;
      const spec = source.value;
      let target = null;
      if (spec.startsWith("#app/")) target = `app/${spec.slice("#app/".length)}`;
      else if (spec.startsWith("."))
        target = path
          .relative(root, path.resolve(path.dirname(context.filename), spec))
          .split(path.sep)
          .join("/");
      const to = target === null ? null : routeFolder(target);
      if (to !== null && !mayImport(from, to)) context.report({ node: source, messageId: "foreign", data: { to: `${ROUTES}${to}/` } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source.type === "Literal" ? node.source : null),
      // typeof import("…") in a type: typescript-eslint 8 names the specifier `source`.
      TSImportType: (node) => check(node.source),
    };
  },
};

export default { rules: { "private-route-folders": privateRouteFolders } };
