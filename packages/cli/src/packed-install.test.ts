/**
 * `@margin/cli` installs as a user would get it: without the reference host and without native code.
 * @margin/core, @margin/providers and @margin/cli are built, packed with pnpm (as they are published:
 * `workspace:*` becomes a version) and installed with npm into an empty folder, install scripts
 * allowed; the installed `margin review` then reviews a change against a model faked on loopback.
 * The third-party dependencies come from the npm registry: the one test that reaches it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExecutable } from './testing/cli-process.js';
import { divisionReviewer, writeFeatureRepository } from './testing/review-fixtures.js';

const workspaceRoot = resolve(fileURLToPath(import.meta.url), '../../../..');
/** What the install takes, by folder under packages/: the CLI and the two packages it depends on. */
const PACKED = ['core', 'providers', 'cli'];
/** What only the reference host needs: a web server, a database, a native addon. */
const HOST_ONLY = [
  '@margin/server-express',
  '@margin/storage-knex',
  'express',
  'helmet',
  'pino-http',
  'knex',
  'pg',
  'better-sqlite3',
  '@node-rs/argon2',
];

const exec = promisify(execFile);
/** Runs a build tool to its end; a failure carries its output. */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  try {
    await exec(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** The newest modification time of a file, or of anything in a folder. */
async function newestChange(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path, { recursive: true });
  return Math.max(info.mtimeMs, ...(await Promise.all(entries.map(async (e) => (await stat(join(path, e))).mtimeMs))));
}

/** A package's build is missing, or older than its sources, manifest or build configuration. */
async function buildIsStale(pkg: string): Promise<boolean> {
  const built = await stat(join(pkg, 'dist', 'index.js')).catch(() => undefined);
  if (!built) return true;
  const inputs = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.build.json'].map((p) => join(pkg, p));
  return Math.max(...(await Promise.all(inputs.map(newestChange)))) > built.mtimeMs;
}

/** A package's manifest under node_modules: `name/package.json` or `@scope/name/package.json`, nested too. */
const MANIFEST = /(?:^|\/node_modules\/)(?:@[^/]+\/)?[^/@]+\/package\.json$/;

/** Every file under `dir`, as paths relative to it. */
const filesUnder = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));

describe('npm install of the packed @margin/cli', { timeout: 120_000 }, () => {
  let dir: string;
  let app: string;
  let model: FakeChatModel | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-cli-install-'));
    // A fresh checkout has no build (and CI has just built): their own build scripts make what they publish.
    const stale: string[] = [];
    for (const name of PACKED) if (await buildIsStale(join(workspaceRoot, 'packages', name))) stale.push(name);
    if (stale.length > 0) {
      await run('pnpm', [...stale.flatMap((name) => ['--filter', `./packages/${name}`]), 'build'], workspaceRoot);
    }
    const tarballs = join(dir, 'tarballs');
    for (const name of PACKED) {
      await run('pnpm', ['pack', '--pack-destination', tarballs], join(workspaceRoot, 'packages', name));
    }
    app = join(dir, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), `${JSON.stringify({ name: 'ci-job', private: true })}\n`);
    const packed = (await readdir(tarballs)).map((file) => join(tarballs, file));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packed], app);
  }, 900_000);

  afterAll(async () => {
    await model?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('brings no web server, database driver or native addon, and nothing that builds one', async () => {
    const modules = join(app, 'node_modules');
    const files = await filesUnder(modules);
    const manifests = files.filter((f) => MANIFEST.test(f));
    const installed = new Set(manifests.map((m) => m.replace(/^(.*\/node_modules\/)?(.*)\/package\.json$/, '$2')));
    expect(installed).toContain('@margin/cli');
    expect(HOST_ONLY.filter((name) => installed.has(name))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.node'))).toEqual([]);
    // Nothing could have compiled during the install: no package has an install step or a gyp build.
    const present = new Set(files);
    const builders: string[] = [];
    for (const manifest of manifests) {
      const { scripts = {} } = JSON.parse(await readFile(join(modules, manifest), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      const steps = ['preinstall', 'install', 'postinstall'].filter((step) => step in scripts);
      if (steps.length > 0 || present.has(manifest.replace(/package\.json$/, 'binding.gyp'))) builders.push(manifest);
    }
    expect(builders).toEqual([]);
  });

  it('reviews a change with the installed margin: the finding, and exit 1 at --fail-on error', async () => {
    const repo = join(dir, 'repo');
    writeFeatureRepository(repo);
    model = await startFakeChatModel({ respond: divisionReviewer('error') });
    const review = await runExecutable(
      join(app, 'node_modules', '.bin', 'margin'),
      [
        'review',
        '--repo',
        repo,
        '--base',
        'main',
        '--head',
        'feature',
        '--model',
        'fake-chat-model',
        '--format',
        'json',
      ],
      { cwd: app, env: { MARGIN_AI_BASE_URL: model.apiRoot, MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } },
    );
    expect(review.stderr).toBe('');
    expect(review.code).toBe(1);
    expect(JSON.parse(review.stdout).findings).toEqual([
      expect.objectContaining({
        filePath: 'src/billing.ts',
        startLine: 12,
        severity: 'error',
        title: 'Division by zero for an empty order',
        publication: 'published',
      }),
    ]);
  });

  it('without @node-rs/argon2, a password use names the package to install', async () => {
    const check = await runExecutable(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        // An embedder seeding its administrator: the password is hashed, which needs the library.
        [
          "const [c, m] = await Promise.all([import('@margin/core'), import('@margin/core/memory')]);",
          "const core = c.createMarginCore({ storage: m.createMemoryStorage(), secrets: c.createAesGcmSecretBox(new Uint8Array(32)), auth: { jwtSecret: 'x'.repeat(32) } });",
          "await core.identity.ensureBootstrapAdmin({ username: 'admin', password: 'correct horse' }).then((r) => console.log('answered', r.status), (e) => console.log(e.code, e.message));",
        ].join('\n'),
      ],
      { cwd: app },
    );
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(
      /^internal Passwords need the package @node-rs\/argon2 .*npm install @node-rs\/argon2/,
    );
  });
});
