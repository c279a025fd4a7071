// @vitest-environment node
import { describe, expect, it } from "vitest";
import { DEFERRED_PRELOAD, DEFERRED_TYPE, deferAppScriptsIn, deferAppScriptsParts } from "#app/document/defer-scripts.server";

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
  /** The loader tag: the same function on every page, called with that page's preload hrefs. */
  const LOADER_TAG =
    /<script nonce="n0nce==">(\(function startAppModules\(hrefs, id, fallbackMs\) \{[\s\S]*?\}\)\(\[[^\]]*\],"app-modules",3000\))<\/script><\/body>/;

  it("leaves no preload and no module script for the parser to start", () => {
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    // The same elements stay, inert, so React hydrates the tree Remix rendered.
    expect(
      out.match(new RegExp(`<link itemprop="${DEFERRED_PRELOAD}" href="/assets/(entry\\.client-a|layout-b)\\.js"/>`, "g")),
    ).toHaveLength(2);
    expect(out).toContain(
      `<script nonce="n0nce==" type="${DEFERRED_TYPE}" id="app-modules">;\nimport * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");</script>`,
    );
  });

  it("adds, with the nonce, a loader right after the inert script (the last node of <body>), the rest untouched", () => {
    const loader = LOADER_TAG.exec(out);
    expect(loader).not.toBeNull();
    expect(loader![1]).toContain('["/assets/entry.client-a.js","/assets/layout-b.js"]');
    expect(loader![1]).toContain("requestAnimationFrame");
    expect(out.startsWith('<html><head><link rel="stylesheet" href="/assets/styles-x.css"/></head><body><main>Hola</main>')).toBe(true);
    expect(
      out.endsWith('</body></html><!--$--><script nonce="n0nce==">window.__remixContext.streamController.close();</script><!--/$-->'),
    ).toBe(true);
  });

  /** A browser's document as far as the loader uses it; `added` collects what it appends. */
  function browserDocument(hidden = false) {
    const added: Record<string, unknown>[] = [];
    const inert = { nonce: "n0nce==", text: 'import("/assets/entry.client-a.js");' };
    const document = {
      hidden,
      createElement: () => ({}) as Record<string, unknown>,
      getElementById: (id: string) => (id === "app-modules" ? inert : null),
      head: { appendChild: (e: Record<string, unknown>) => added.push({ ...e, in: "head" }) },
      body: { appendChild: (e: Record<string, unknown>) => added.push({ ...e, in: "body" }) },
    };
    return { document, added };
  }
  const loaderOf = (html: string) => LOADER_TAG.exec(html)![1];
  const run = (loader: string, ...args: unknown[]) =>
    new Function("document", "requestAnimationFrame", "setTimeout", "PerformanceObserver", loader)(...args);
  /** A PerformanceObserver of the given entry types that records what the loader asks of it. */
  function fakeObserver(types: string[]) {
    const seen = {
      observed: [] as unknown[],
      disconnected: false,
      report: undefined as ((list: { getEntries: () => unknown[] }) => void) | undefined,
    };
    class FakeObserver {
      static supportedEntryTypes = types;
      constructor(callback: typeof seen.report) {
        seen.report = callback;
      }
      observe(options: unknown) {
        seen.observed.push(options);
      }
      disconnect() {
        seen.disconnected = true;
      }
    }
    return { FakeObserver, seen };
  }
  /** setTimeout as a list of what was scheduled, run by hand. */
  function fakeTimers() {
    const tasks: { f: () => void; ms?: number }[] = [];
    return { tasks, setTimeout: (f: () => void, ms?: number) => tasks.push({ f, ms }) };
  }
  const appModules = [
    { rel: "modulepreload", href: "/assets/entry.client-a.js", in: "head" },
    { rel: "modulepreload", href: "/assets/layout-b.js", in: "head" },
    { type: "module", nonce: "n0nce==", text: 'import("/assets/entry.client-a.js");', in: "body" },
  ];

  it("with paint timing, the app starts in the task after the first contentful paint is reported", () => {
    const { document, added } = browserDocument();
    const { FakeObserver, seen } = fakeObserver(["mark", "paint"]);
    const { tasks, setTimeout } = fakeTimers();
    run(loaderOf(out), document, () => expect.fail("no animation frame is needed"), setTimeout, FakeObserver);
    // Already painted before the loader ran counts too (buffered).
    expect(seen.observed).toEqual([{ type: "paint", buffered: true }]);
    expect(tasks.map((t) => t.ms)).toEqual([3000]);
    seen.report!({ getEntries: () => [{ name: "first-paint", entryType: "paint" }] });
    expect(tasks).toHaveLength(1);
    seen.report!({ getEntries: () => [{ name: "first-contentful-paint", entryType: "paint" }] });
    expect(seen.disconnected).toBe(true);
    expect(added).toEqual([]);
    tasks[1].f();
    expect(added).toEqual(appModules);
    // The 3 s fallback then finds the app started and adds nothing twice.
    tasks[0].f();
    expect(added).toHaveLength(3);
  });

  it("with largest-paint timing, a high-priority picture in view larger than what is shown is waited for", () => {
    const { document, added } = browserDocument();
    // A 300 × 200 picture, its lower half below an 800 px tall viewport: 30,000 px² in view.
    const picture = { getBoundingClientRect: () => ({ left: 20, right: 320, top: 700, bottom: 900 }) };
    Object.assign(document, {
      documentElement: { clientWidth: 400, clientHeight: 800 },
      querySelectorAll: (selector: string) => (selector === 'img[fetchpriority="high"]' ? [picture] : []),
    });
    const { FakeObserver, seen } = fakeObserver(["paint", "largest-contentful-paint"]);
    const { tasks, setTimeout } = fakeTimers();
    run(loaderOf(out), document, () => {}, setTimeout, FakeObserver);
    expect(seen.observed).toEqual([
      { type: "paint", buffered: true },
      { type: "largest-contentful-paint", buffered: true },
    ]);
    // First paint: a heading of 20,000 px². The picture could still be the largest: wait.
    seen.report!({
      getEntries: () => [
        { name: "first-contentful-paint", entryType: "paint" },
        { name: "", entryType: "largest-contentful-paint", size: 20000 },
      ],
    });
    expect(tasks.map((t) => t.ms)).toEqual([3000]);
    // The picture shown (its entry counts what is in view).
    seen.report!({ getEntries: () => [{ name: "", entryType: "largest-contentful-paint", size: 30000 }] });
    expect(tasks).toHaveLength(2);
    tasks[1].f();
    expect(added).toEqual(appModules);
  });

  it("with paint timing but nothing painted (3 s), the app starts anyway", () => {
    const { document, added } = browserDocument();
    const { tasks, setTimeout } = fakeTimers();
    run(loaderOf(out), document, () => {}, setTimeout, fakeObserver(["paint"]).FakeObserver);
    expect(added).toEqual([]);
    tasks.find((t) => t.ms === 3000)!.f();
    expect(added).toEqual(appModules);
  });

  it("in a browser without paint timing, the loader puts back the preloads and a module script with the same code and nonce after the first frame", () => {
    const { document, added } = browserDocument();
    let frame: (() => void) | undefined;
    let task: (() => void) | undefined;
    run(
      loaderOf(out),
      document,
      (f: () => void) => (frame = f),
      (f: () => void) => (task = f),
      undefined,
    );
    // Nothing before the frame has been painted.
    expect(added).toEqual([]);
    frame!();
    expect(added).toEqual([]);
    task!();
    expect(added).toEqual(appModules);
  });

  it("a hidden tab (no animation frames, no paint until shown) starts at once", () => {
    const { document, added } = browserDocument(true);
    run(
      loaderOf(out),
      document,
      () => {},
      () => {},
      fakeObserver(["paint"]).FakeObserver,
    );
    expect(added).toEqual(appModules);
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
