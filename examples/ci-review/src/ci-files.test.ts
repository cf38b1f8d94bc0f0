import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { divisionReviewer, runCliProcess, sarifProblems, writeFeatureRepository } from '@margin/cli/testing';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const here = new URL('..', import.meta.url).pathname;

/** The `margin review …` part of a CI command, split into arguments as a shell would (quotes only). */
function marginArgs(command: string, variables: Record<string, string>): string[] {
  const expanded = command
    .replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => variables[name] ?? '')
    .replace(/\$(\w+)/g, (_, name: string) => variables[name] ?? '');
  const at = expanded.indexOf('margin review');
  expect(at).toBeGreaterThanOrEqual(0);
  // The CLI package alone: no reference host (Express, a database, native code) to install.
  expect(expanded.slice(0, at)).toMatch(/npx --yes -p @margin\/cli\s+$/);
  return [...expanded.slice(at + 'margin '.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

describe('the CI examples run margin review for real', () => {
  let dir: string;
  let model: FakeChatModel;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-ci-example-'));
    model = await startFakeChatModel({ respond: divisionReviewer('error') });
  });
  afterAll(async () => {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the example's command in a clone-like repository (the target branch as `origin/main`). */
  async function runInCi(
    name: string,
    command: string,
    variables: Record<string, string>,
    env: Record<string, string>,
  ) {
    const repo = join(dir, name);
    writeFeatureRepository(repo);
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['update-ref', 'refs/remotes/origin/main', 'main'], { cwd: repo });
    execFileSync('git', ['checkout', '-q', 'feature'], { cwd: repo });
    const run = await runCliProcess(marginArgs(command, variables), {
      cwd: repo,
      env: {
        ...env,
        MARGIN_AI_PROVIDER_KIND: 'kindCompatible',
        MARGIN_AI_BASE_URL: model.apiRoot,
        MARGIN_AI_MODEL: 'fake-chat-model',
        MARGIN_AI_API_KEY: 'sk-ci-example-key',
        MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      },
    });
    return { run, repo };
  }

  it('GitHub Actions: the workflow’s review step writes the SARIF its upload step takes, and fails the job on an error', async () => {
    const workflow = parse(await readFile(join(here, 'github-actions', 'margin-review.yml'), 'utf8'));
    const steps: Array<{ run?: string; with?: Record<string, string>; env?: Record<string, string> }> =
      workflow.jobs.review.steps;
    const review = steps.find((s) => s.run?.includes('margin review'));
    const upload = steps.find((s) => s.with?.sarif_file);
    // The key comes from the repository's secrets, never from the command line.
    expect(review?.env?.MARGIN_AI_API_KEY).toMatch(/^\$\{\{ secrets\.MARGIN_AI_API_KEY \}\}$/);
    expect(review?.run).not.toContain('API_KEY');
    const { run, repo } = await runInCi('github', review?.run ?? '', { 'github.base_ref': 'main' }, {});
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const sarif = JSON.parse(await readFile(join(repo, upload?.with?.sarif_file ?? ''), 'utf8'));
    expect(sarifProblems(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(1);
  });

  it('GitLab CI: the job’s script writes the SARIF kept as its artifact', async () => {
    const pipeline = parse(await readFile(join(here, 'gitlab-ci', '.gitlab-ci.yml'), 'utf8'));
    const job = pipeline['margin-review'];
    const command: string = job.script.find((line: string) => line.includes('margin review'));
    const { run, repo } = await runInCi('gitlab', command, { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' }, {});
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(job.artifacts.when).toBe('always');
    for (const path of job.artifacts.paths) expect(existsSync(join(repo, path))).toBe(true);
    expect(sarifProblems(JSON.parse(await readFile(join(repo, 'margin.sarif'), 'utf8')))).toEqual([]);
  });
});
