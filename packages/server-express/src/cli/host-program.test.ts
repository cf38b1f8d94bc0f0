import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { divisionReviewer, runCliInProcess, writeFeatureRepository } from '@margin/cli/testing';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './host-program.js';

describe('the host’s margin runs @margin/cli’s review and eval beside its own commands', { timeout: 60_000 }, () => {
  let dir: string;
  let repo: string;
  let model: FakeChatModel;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-host-cli-'));
    repo = join(dir, 'repo');
    writeFeatureRepository(repo);
    model = await startFakeChatModel({ respond: divisionReviewer('error') });
  });
  afterAll(async () => {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  });

  const host = (argv: string[], env: Record<string, string> = {}) => runCliInProcess(argv, env, { run: runCli });
  const modelEnv = () => ({
    MARGIN_AI_BASE_URL: model.apiRoot,
    MARGIN_AI_MODEL: 'fake-chat-model',
    MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
  });

  it('lists its own commands and the CLI’s in one usage', async () => {
    const run = await host(['--help']);
    expect(run.code).toBe(0);
    expect([...run.stdout.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1])).toEqual([
      'serve',
      'migrate',
      'openapi',
      'review',
      'eval',
    ]);
    expect((await host(['eval', '--help'])).stdout).toMatch(/^Usage: margin eval --scripted/);
  });

  it('reviews a local change with the CLI’s review: the finding, and exit 1 at --fail-on error', async () => {
    const run = await host(
      ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json'],
      modelEnv(),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      expect.objectContaining({
        filePath: 'src/billing.ts',
        startLine: 12,
        severity: 'error',
        publication: 'published',
      }),
    ]);
  });

  it('keeps the host’s own secrets out of a failing command’s line', async () => {
    const secret = 'jwt-canary-0123456789abcdefghijklmnop';
    const run = await host(['review', '--repo', repo, '--base', secret], { ...modelEnv(), MARGIN_JWT_SECRET: secret });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `margin review: --base [redacted] is not a commit in ${repo}.\n`,
    });
  });
});
