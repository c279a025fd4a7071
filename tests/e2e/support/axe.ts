import AxeBuilder from "@axe-core/playwright";
import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import axe from "axe-core";
import { test as base } from "./fixtures";
import { HTMLCS_SOURCE, htmlcsErrors, htmlValidateErrors } from "./standards";

/** A JS-enabled page to run axe on what a no-JS visitor got; made on first use, closed with the test. */
export const test = base.extend<{ helper: () => Promise<Page> }>({
  helper: async ({ browser }, use) => {
    const made: Page[] = [];
    await use(async () => {
      if (!made.length) made.push(await (await browser.newContext({ javaScriptEnabled: true, locale: "es-ES" })).newPage());
      return made[0];
    });
    for (const page of made) await page.context().close();
  },
});

/**
 * Every screen, checked once per load at phone and desktop width, with JS on and off (the two
 * projects): axe must find nothing, and at 375 px nothing may scroll sideways.
 */
export const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
];

export type Problem = string;

/** axe and HTML_CodeSniffer, together 0.9 MB of script. */
const ENGINES = `${axe.source};\n${HTMLCS_SOURCE}`;

/**
 * Puts both engines in the page and each of its frames, once per document: AxeBuilder alone sent
 * axe twice to every page it analysed, and HTML_CodeSniffer went again with each check.
 */
async function injectEngines(page: Page) {
  for (const frame of page.frames()) {
    const present = await frame.evaluate(() => "axe" in window && "HTMLCS" in window).catch(() => true);
    if (!present) await frame.evaluate(ENGINES).catch(() => {});
  }
}
/** What AxeBuilder evaluates as "axe's source" in each frame: nothing, the page has it already. */
const ALREADY_INJECTED = "void 0";

/**
 * Documents html-validate and HTML_CodeSniffer have read in this worker, by their HTML: a screen
 * checked at 375 and at 1280 px is the same document, and they judge its markup, so the second
 * width costs axe alone (docs/testing.md).
 */
const readDocuments = new Set<string>();

/**
 * Three engines: axe and HTML_CodeSniffer (what pa11y runs) on the page as shown, html-validate
 * on its HTML as the browser holds it; the last two once per document.
 *
 * axe runs inside the page, which a page without JavaScript cannot do. Without JS, the DOM the
 * visitor got is copied, scripts removed, into a helper page (same address, same CSS, same size)
 * where axe can run: what is checked is exactly what a no-JS visitor sees.
 */
export async function check(page: Page, js: boolean, name: string, problems: Problem[], helperPage: () => Promise<Page>) {
  let target = page;
  // The whole document, not what has streamed in so far (toHaveURL passes as soon as it commits).
  await page.waitForLoadState("load");
  const source = await page.content();
  const digest = createHash("sha256").update(source).digest("base64");
  const firstRead = !readDocuments.has(digest);
  readDocuments.add(digest);
  if (firstRead) for (const error of await htmlValidateErrors(source)) problems.push(`${name}: ${error}`);
  if (!js) {
    const html = source.replace(/<script\b[\s\S]*?<\/script>/gi, "");
    const url = page.url();
    target = await helperPage();
    await target.setViewportSize(page.viewportSize()!);
    await target.unrouteAll();
    await target.route("**/*", (route) => {
      const request = route.request();
      if (request.isNavigationRequest() && request.url() === url)
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      if (request.resourceType() === "script") return route.abort();
      return route.continue();
    });
    await target.goto(url);
    // The helper runs with scripting on, where a page waiting for its app hides the region's
    // button for 8 s. A visitor without JavaScript (scripting off) has it at once, like a page
    // that ships no scripts: mark the copy as one, so axe checks what that visitor sees.
    await target.evaluate(() => document.documentElement.classList.add("no-scripts"));
  }
  {
    // A toast fading in is measured mid-fade by color-contrast (a flake seen in CI): let every
    // running animation settle first, as a person would see the page.
    await target
      .waitForFunction(
        () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
        null,
        { timeout: 5_000 },
      )
      .catch(() => {});
    // …and none may start while axe runs (a toast's 5 s are up mid-analysis on a loaded machine,
    // and its fade-out was measured half transparent): animations jump to their end state.
    await target.addStyleTag({
      content:
        "*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; transition-duration: 0s !important; transition-delay: 0s !important; }",
    });
    // A lazy iframe below the fold never loads in a page nobody scrolls, and axe waits a second
    // for each before skipping it unchecked: on /iframe/routes most widget previews went
    // unchecked, and each analysis was slower. Loaded first, all are checked, sooner.
    await target.evaluate(() =>
      Promise.all(
        [...document.querySelectorAll<HTMLIFrameElement>('iframe[loading="lazy"]')].map(
          (frame) =>
            new Promise<void>((resolve) => {
              const doc = frame.contentDocument;
              if (doc && doc.readyState === "complete" && doc.URL !== "about:blank") return resolve();
              frame.addEventListener("load", () => resolve(), { once: true });
              frame.loading = "eager";
              // A frame of another origin hides its document: never wait on it past this.
              setTimeout(resolve, 5_000);
            }),
        ),
      ),
    );
    // Only violations are read: axe then builds a selector for at most one node of each passing
    // or inapplicable rule instead of for all of them, the slow end of its run on a long page.
    // Legacy mode runs axe once in the page, reaching same-origin frames through axe itself; the
    // default opens a blank page for every analysis to merge the frames' results there, which
    // cost most of an analysis's time. Every frame a page of ours embeds is ours
    // (the widget previews): with a contrast fault planted in each of /iframe/routes' frames,
    // both modes report the same 233 nodes in all of them. Cross-origin frames (only the third
    // parties' mocked widgets) go unchecked, and their content is not ours to fix.
    await injectEngines(target);
    const results = await new AxeBuilder({ page: target, axeSource: ALREADY_INJECTED })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .options({ resultTypes: ["violations"] })
      .setLegacyMode(true)
      .analyze();
    if (firstRead) for (const error of await htmlcsErrors(target)) problems.push(`${name}: ${error}`);
    for (const v of results.violations) {
      problems.push(
        `${name}: ${v.id} (${v.nodes.length}) ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
      );
    }
    const { doc, view } = await target.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    if (doc > view) problems.push(`${name}: scrolls sideways (${doc} px > ${view} px)`);
    // A table that is one card per row on a phone (.stack-table) must fit in its cards: a long
    // email overflowed its cell, cut off by the table's scroll box, which the check above misses.
    const overflowing = await target.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>(".stack-table td")].filter(
          (td) => getComputedStyle(td).display === "grid" && td.scrollWidth > td.clientWidth,
        ).length,
    );
    if (overflowing > 0) problems.push(`${name}: ${overflowing} stacked table cells wider than their card`);
  }
}
