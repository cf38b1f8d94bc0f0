#!/usr/bin/env node
// One entry point for a machine that has only Node and npm: it brings the pinned pnpm, installs the
// workspace from the lockfile, then runs `pnpm <args>`. `node scripts/run.mjs start`, `... test`,
// `... bench`, `... build`. Machine quirks live here so nobody has to remember them; `test` also
// brings Debian's Chromium for the console's browser tests (ensure-chromium.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-chromium.mjs';

const PNPM_VERSION = '12.21.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const toolsBin = join(toolsDir, 'node_modules', '.bin');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  fail(`Margin needs Node 20.19 or newer; this is ${process.versions.node}.`);
}

const env = { ...process.env, PATH: `${toolsBin}${delimiter}${process.env.PATH ?? ''}` };
// better-sqlite3 compiles from source when no prebuilt binary is reachable; node-gyp would then try to
// download Node headers. Where the distribution ships them, point node-gyp at them (pnpm does not
// pass `nodedir` from .npmrc on to install scripts).
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node_api.h')) {
  env.npm_config_nodedir = '/usr';
}

ensurePnpm();
const args = process.argv.slice(2);
if (args[0] !== 'install') run('pnpm', ['install', '--frozen-lockfile', '--reporter=append-only']);
if (args[0] === 'test') ensureChromium();
if (args.length > 0) runForwardingSignals('pnpm', args);

function ensurePnpm() {
  if (pnpmVersion() === PNPM_VERSION) return;
  console.log(`Installing pnpm ${PNPM_VERSION} into .tools/ ...`);
  run('npm', ['install', '--prefix', toolsDir, '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_VERSION}`]);
  if (pnpmVersion() !== PNPM_VERSION) fail(`pnpm ${PNPM_VERSION} could not be installed.`);
}

function pnpmVersion() {
  const r = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8', shell: process.platform === 'win32' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) fail(`${cmd} ${cmdArgs.join(' ')} exited with ${r.status ?? r.signal}.`);
}

// The last command may be the long-running server: pass SIGTERM/SIGINT on so it can shut down cleanly.
function runForwardingSignals(cmd, cmdArgs) {
  const child = spawn(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function fail(message) {
  console.error(`run: ${message}`);
  process.exit(1);
}
