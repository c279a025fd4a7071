/**
 * Runs before the tests: the browser suite drives Debian's Chromium (playwright.config.ts) and
 * never downloads one. Without it every browser test would fail after the whole vitest pass, so
 * this says at once what to install; as root on Debian (as CI runs) it installs it itself.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const shell = process.env.HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
const packages = ["chromium", "chromium-headless-shell"];
const installLine = `sudo apt-get install -y ${packages.join(" ")}`;

function runs(path: string): boolean {
  return existsSync(path) && spawnSync(path, ["--version"], { stdio: "ignore", timeout: 20_000 }).status === 0;
}

if (!runs(chromium) || (!process.env.HEADLESS_SHELL_PATH && !existsSync(shell))) {
  const canInstall = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get") && !process.env.CHROMIUM_PATH;
  if (!canInstall && !runs(chromium)) {
    console.error(
      `The browser tests need Chromium at ${chromium}, and it is not there.\n` +
        `  On Debian or Ubuntu: ${installLine}\n` +
        `  Elsewhere: install Chromium and set CHROMIUM_PATH (and HEADLESS_SHELL_PATH for its headless shell, optional).`,
    );
    process.exit(1);
  }
  if (canInstall) {
    console.log(`Installing ${packages.join(" and ")} (apt-get, as root)…`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", ...packages], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
}
