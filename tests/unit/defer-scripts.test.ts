// @vitest-environment node
import { describe, expect, it } from "vitest";
import { DEFERRED_PRELOAD, DEFERRED_TYPE, deferAppScriptsIn, deferAppScriptsParts } from "#app/lib/defer-scripts.server";

const deferAppScripts = (html: string) => deferAppScriptsParts(html).join("");

/** What Remix's <Scripts nonce> renders (React's markup), then its streamed data after </html>. */
const shell =
  '<html><head><link rel="stylesheet" href="/assets/styles-x.css"/></head><body><main>Hola</main>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js"/><link rel="modulepreload" href="/assets/layout-b.js"/>' +
  '<script nonce="n0nce==">window.__remixContext = {};</script>' +
  '<script nonce="n0nce==" type="module" async="">;\nimport * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");</script>' +
  '</body></html><!--$--><script nonce="n0nce==">window.__remixContext.streamController.close();</script><!--/$-->';

describe("deferAppScripts: the app's JavaScript starts after the first paint", () => {
  const out = deferAppScripts(shell);

  it("leaves no preload and no module script for the parser to start", () => {
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    // The same elements stay, inert, so React hydrates the tree Remix rendered.
    expect(out.match(new RegExp(`<link rel="${DEFERRED_PRELOAD}" href="/assets/(entry\\.client-a|layout-b)\\.js"/>`, "g"))).toHaveLength(2);
    expect(out).toContain(`<script nonce="n0nce==" type="${DEFERRED_TYPE}" id="app-modules">;\nimport * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");</script>`);
  });

  it("adds, with the nonce, a loader right after the inert script (the last node of <body>), the rest untouched", () => {
    const loader = /<script nonce="n0nce==">(\(function\(\)\{[\s\S]*?\}\)\(\))<\/script><\/body>/.exec(out);
    expect(loader).not.toBeNull();
    expect(loader![1]).toContain('["/assets/entry.client-a.js","/assets/layout-b.js"]');
    expect(loader![1]).toContain("requestAnimationFrame");
    expect(out.startsWith('<html><head><link rel="stylesheet" href="/assets/styles-x.css"/></head><body><main>Hola</main>')).toBe(true);
    expect(out.endsWith('</body></html><!--$--><script nonce="n0nce==">window.__remixContext.streamController.close();</script><!--/$-->')).toBe(true);
  });

  it("in a browser, the loader puts back the preloads and a module script with the same code and nonce", () => {
    const added: Record<string, unknown>[] = [];
    const inert = { nonce: "n0nce==", text: 'import("/assets/entry.client-a.js");' };
    const element = () => ({}) as Record<string, unknown>;
    let frame: (() => void) | undefined;
    let task: (() => void) | undefined;
    const document = {
      hidden: false,
      createElement: element,
      getElementById: (id: string) => (id === "app-modules" ? inert : null),
      head: { appendChild: (e: Record<string, unknown>) => added.push({ ...e, in: "head" }) },
      body: { appendChild: (e: Record<string, unknown>) => added.push({ ...e, in: "body" }) },
    };
    const loader = /<script nonce="n0nce==">(\(function\(\)\{[\s\S]*?\}\)\(\))<\/script><\/body>/.exec(out)![1];
    new Function("document", "requestAnimationFrame", "setTimeout", loader)(document, (f: () => void) => (frame = f), (f: () => void) => (task = f));
    // Nothing before the frame has been painted.
    expect(added).toEqual([]);
    frame!();
    expect(added).toEqual([]);
    task!();
    expect(added).toEqual([
      { rel: "modulepreload", href: "/assets/entry.client-a.js", in: "head" },
      { rel: "modulepreload", href: "/assets/layout-b.js", in: "head" },
      { type: "module", nonce: "n0nce==", text: 'import("/assets/entry.client-a.js");', in: "body" },
    ]);
  });

  it("a hidden tab (no animation frames until shown) starts at once", () => {
    const added: unknown[] = [];
    const document = {
      hidden: true,
      createElement: () => ({}),
      getElementById: () => ({ nonce: "n", text: "" }),
      head: { appendChild: (e: unknown) => added.push(e) },
      body: { appendChild: (e: unknown) => added.push(e) },
    };
    const loader = /<script nonce="n0nce==">(\(function\(\)\{[\s\S]*?\}\)\(\))<\/script><\/body>/.exec(out)![1];
    new Function("document", "requestAnimationFrame", "setTimeout", loader)(document, () => {}, () => {});
    expect(added).toHaveLength(3);
  });

  it("a page without Remix's module script (noScripts, the widget) is returned as it is", () => {
    const page = '<html><body><link rel="modulepreload" href="/x.js"/><p>x</p></body></html>';
    expect(deferAppScripts(page)).toBe(page);
  });

  it("a streamed chunk: the shell's bytes rewritten the same way, any other chunk passed on as it is", () => {
    const shellBytes = Buffer.from(shell + "€…");
    expect(deferAppScriptsIn(shellBytes).toString("utf8")).toBe(deferAppScripts(shell + "€…"));
    const data = Buffer.from("<script>more data €</script>");
    expect(deferAppScriptsIn(data)).toBe(data);
  });
});
