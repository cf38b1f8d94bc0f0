#!/usr/bin/env node
// The console's browser tests drive Debian's Chromium (playwright-core cannot download a browser
// here). When it is missing and this machine allows it (root, apt-get), install it; in CI a missing
// browser is a failure, elsewhere the browser suite is skipped with a note.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.MARGIN_CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium({ required = process.env.CI === 'true' } = {}) {
  if (existsSync(CHROMIUM_PATH)) return true;
  const canInstall = process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log("Installing Debian's chromium for the console's browser tests ...");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
    // A fresh machine may have no package lists yet; DejaVu gives screenshots readable text.
    apt(['update', '-q']) && apt(['install', '-y', '-q', '--no-install-recommends', 'chromium', 'fonts-dejavu-core']);
  }
  if (existsSync(CHROMIUM_PATH)) return true;
  const why = canInstall
    ? 'apt-get did not provide it there'
    : 'installing it needs root and apt-get (Debian); install chromium or set MARGIN_CHROMIUM_PATH';
  if (required) {
    console.error(`Chromium is missing at ${CHROMIUM_PATH}: ${why}. CI must run the console's browser tests.`);
    process.exit(1);
  }
  console.warn(`Note: Chromium is missing at ${CHROMIUM_PATH} (${why}); the console's browser tests will be skipped.`);
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureChromium();
