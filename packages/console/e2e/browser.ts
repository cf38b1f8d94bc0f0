/**
 * Debian's Chromium driven by playwright-core, with an accessibility check (axe-core injected into
 * the page) and screenshots into `packages/console/screenshots/` (gitignored).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.MARGIN_CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** True when the suite can run; CI must never skip it, so there a missing browser is a failure. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable()) {
    throw new Error(
      `Chromium is not at ${CHROMIUM_PATH}. Run \`node scripts/run.mjs test\` as root to install Debian's chromium package, or set MARGIN_CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The machine has no network but loopback: keep Chromium from phoning home at every start.
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Runs axe-core's WCAG 2.1 A and AA rules on the page as it is now; fails with each violation named. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Strings, not functions: this file is type-checked for Node, where `window` does not exist.
  if (!(await page.evaluate<boolean>('typeof axe !== "undefined"'))) await page.evaluate(axe.source);
  const violations = await page.evaluate<Array<{ id: string; help: string; targets: string[] }>>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((result) => result.violations.map((v) => ({
        id: v.id,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      })))`);
  if (violations.length > 0) {
    throw new Error(`Accessibility violations on ${name}:\n${JSON.stringify(violations, null, 2)}`);
  }
}

/** Saves a full-page screenshot as `<n>-<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** A main page: checked for accessibility and photographed. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await screenshot(page, name);
}
