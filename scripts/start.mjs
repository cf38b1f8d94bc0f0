#!/usr/bin/env node
// `pnpm start`: builds the packages when their sources are newer than the build, then runs the gateway
// with the management console (packages/console) at `/`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function needsBuild() {
  return readdirSync(packagesDir).some((name) => {
    // A package with an index.html at its root is a site (the console): its build is dist/index.html.
    const site = existsSync(join(packagesDir, name, 'index.html'));
    const built = join(packagesDir, name, 'dist', site ? 'index.html' : 'index.js');
    if (!existsSync(built)) return true;
    const sources = [join(packagesDir, name, 'src'), join(root, 'openapi.json')];
    return sources.some((src) => existsSync(src) && newestMtime(src) > statSync(built).mtimeMs);
  });
}

if (needsBuild()) {
  console.log('Building Margin ...');
  const build = spawnSync('pnpm', ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(
  process.execPath,
  [join(packagesDir, 'server-express', 'dist', 'cli.js'), 'serve', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { MARGIN_CONSOLE_DIR: join(packagesDir, 'console', 'dist'), ...process.env },
  },
);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
