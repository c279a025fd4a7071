import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { HtmlValidate, type ConfigData } from "html-validate";

/**
 * html-validate's recommended rules, less the ones about how markup is spelled rather than what it
 * means: React writes `<meta charSet=…/>`, `disabled=""` and `hidden=""`, and the few inline styles
 * are deliberate (a widget snippet, a progress width). Ids are checked against HTML's own rule (no
 * spaces), which React's `useId` (`:R1:`) and the forms' `price_options[0].title` meet. A name on a
 * list or a definition list is valid ARIA; on a plain <span> or <div> it is still an error. Every
 * other rule about content, attributes, ARIA and forms stays on.
 */
export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ["html-validate:recommended"],
  rules: {
    "void-style": "off",
    "attr-case": "off",
    "attribute-boolean-style": "off",
    "attribute-empty-style": "off",
    "no-inline-style": "off",
    "valid-id": ["error", { relaxed: true }],
    "aria-label-misuse": ["error", { allowAnyNamable: true }],
  },
};

const validator = new HtmlValidate(HTML_VALIDATE_CONFIG);

/** html-validate's errors in a page's HTML, one line each: rule, message, where. */
export async function htmlValidateErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html, "page.html");
  return report.results.flatMap((result) =>
    result.messages.map((m) => `html-validate ${m.ruleId}: ${m.message} (line ${m.line}: ${m.selector ?? ""})`),
  );
}

/** HTML_CodeSniffer's source, for `injectEngines` (axe.ts) to put in each document that is checked. */
export const HTMLCS_SOURCE = readFileSync(createRequire(import.meta.url).resolve("html_codesniffer/build/HTMLCS.js"), "utf8");

/**
 * HTML_CodeSniffer, the engine pa11y runs, on the page as shown: standard WCAG2AA, errors only,
 * as `pa11y --standard WCAG2AA` reports them. The page holds the engine already (axe.ts's
 * `injectEngines`, run through evaluate, which the pages' Content-Security-Policy does not govern).
 */
export async function htmlcsErrors(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        type Message = { type: number; code: string; msg: string; element: Element };
        const htmlcs = (
          window as unknown as {
            HTMLCS: { ERROR: number; process: (s: string, d: Document, done: () => void) => void; getMessages: () => Message[] };
          }
        ).HTMLCS;
        htmlcs.process("WCAG2AA", document, () => {
          resolve(
            htmlcs
              .getMessages()
              .filter((m) => m.type === htmlcs.ERROR)
              .map((m) => `HTML_CodeSniffer ${m.code}: ${m.msg} (${(m.element.outerHTML || "").slice(0, 120)})`),
          );
        });
      }),
  );
}
