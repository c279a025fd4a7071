import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Holds back every script of the shop until release(): the pages load as they would on a slow network. */
export async function holdScripts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const scripts = /\/assets\/.*\.js$/;
  await page.route(scripts, async (route) => {
    await held;
    await route.continue().catch(() => {}); // the page may have gone on meanwhile
  });
  return {
    /** Lets the scripts through and waits for the app to start on the page shown. */
    async release() {
      release();
      await page.unroute(scripts);
      await expect(page.locator("html.js")).toHaveCount(1, { timeout: 20_000 });
    },
  };
}

/**
 * A document whose scripts are held: it never reaches "load", so wait for what is drawn (`drawn`, the
 * footer by default; a tool page such as the partners' till has none, its page's `main` then).
 */
export async function openHeld(page: Page, path: string, drawn = "footer") {
  await page.goto(path, { waitUntil: "commit" });
  await expect(page.locator(drawn).first()).toBeVisible();
  await expect(page.locator("html.js")).toHaveCount(0);
}
