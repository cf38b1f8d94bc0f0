import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../testing/cli-process.js';
import { runCliInProcess } from '../testing/in-process.js';
import { confirmAll, findingsAnswer, isVerifying, systemOf, userOf } from '../testing/review-scripts.js';
import { formatEvalTable } from './eval-table.js';
import { JUDGE_SYSTEM_PROMPT } from './judge.js';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const CASES = join(REPO_ROOT, 'eval', 'cases');

describe('margin eval', { timeout: 120_000 }, () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'margin-eval-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('replays the recorded answers of every case and scores them: a regression check of everything but the model', async () => {
    const run = await runCliInProcess(
      ['eval', '--scripted', '--cases', CASES, '--work', join(work, 'scripted'), '--format', 'json'],
      { PATH: process.env.PATH ?? '' },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    // The table, in the test's output, as CI shows it.
    process.stdout.write(`\n${formatEvalTable(report.model, report.cases, report.totals)}`);
    expect(report.cases).toHaveLength(30);
    expect(report.cases.filter((c: { kind: string }) => c.kind === 'clean')).toHaveLength(10);
    expect(new Set(report.cases.map((c: { language: string }) => c.language))).toEqual(
      new Set(['typescript', 'python', 'go', 'java', 'csharp']),
    );
    expect(report.totals).toEqual({
      cases: 30,
      failedCases: 0,
      expected: 20,
      candidates: 20,
      found: 18,
      precision: 0.9,
      recall: 0.9,
      f05: expect.closeTo(0.9, 6),
      cleanCases: 10,
      falseFindingsOnClean: 1,
      cleanCasesWithFindings: 1,
      anchorAgreement: expect.closeTo(16 / 21, 6),
      parsing: { text: { ok: 29, repaired: 1, failed: 0 } },
      tokensPerCase: expect.any(Number),
      costUsd: expect.any(Number),
      costPerCaseUsd: expect.any(Number),
    });
    // What the scripted reviewer got wrong on purpose shows where it should.
    const byId = Object.fromEntries(report.cases.map((c: { id: string }) => [c.id, c]));
    expect(byId['ts-orders-n-plus-one']).toMatchObject({ found: 0, missed: [expect.stringContaining('N+1')] });
    expect(byId['py-clean-move-module']).toMatchObject({ candidates: 1, falseFindings: 1 });
    expect(byId['ts-clean-extract-function']).toMatchObject({ candidates: 0 }); // the verifier dropped it
    expect(byId['cs-report-sql-concatenation']).toMatchObject({ found: 1, falseFindings: 1 });
    expect(report.totals.costUsd).toBeGreaterThan(0);
  });

  it('fails a scripted run whose prompts changed since the answers were recorded, naming the case', async () => {
    const cases = join(work, 'changed-cases');
    await cp(join(CASES, 'go-nil-map-counter'), join(cases, 'go-nil-map-counter'), { recursive: true });
    const spec = JSON.parse(await readFile(join(cases, 'go-nil-map-counter', 'case.json'), 'utf8'));
    await writeFile(
      join(cases, 'go-nil-map-counter', 'case.json'),
      JSON.stringify({ ...spec, title: 'Another title' }),
    );
    const run = await runCliInProcess(['eval', '--scripted', '--cases', cases, '--work', join(work, 'changed')], {
      PATH: process.env.PATH ?? '',
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('go-nil-map-counter (failed)');
    expect(run.stderr).toMatch(
      /^margin eval: 1 case could not be replayed \(go-nil-map-counter\): No recorded answer for a request of case go-nil-map-counter: the prompt changed since the answers were recorded/,
    );
  });

  it('measures a live model (here a fake on loopback), with the judge, and writes eval/results/<name>.json', async () => {
    const model = await startFakeChatModel({
      respond: (request) => {
        if (isVerifying(request)) return confirmAll(request);
        if (systemOf(request).startsWith(JUDGE_SYSTEM_PROMPT.slice(0, 40))) {
          // The judge refuses the match for the redirect case: the deterministic pair does not count.
          return { content: JSON.stringify({ match: !userOf(request).includes('redirect'), why: 'compared' }) };
        }
        if (userOf(request).includes('## File: src/cart.ts')) {
          return findingsAnswer({
            path: 'src/cart.ts',
            quote: 'return cartTotal(items) / units;',
            startLine: 15,
            endLine: 15,
            category: 'bug',
            title: 'NaN average for an empty cart',
            severity: 'error',
            message: 'With no items `units` is 0 and the average is NaN.',
          });
        }
        if (userOf(request).includes('## File: src/login.ts')) {
          return findingsAnswer({
            path: 'src/login.ts',
            quote: 'res.redirect(next);',
            startLine: 11,
            endLine: 11,
            category: 'security',
            title: 'Unvalidated redirect target',
            severity: 'error',
            message: 'The `next` parameter is used as the redirect target without checking it is a local path.',
          });
        }
        return findingsAnswer();
      },
    });
    try {
      const results = join(work, 'results');
      const run = await runCliProcess(
        [
          'eval',
          '--cases',
          CASES,
          '--case',
          'ts-cart-average-empty',
          '--case',
          'ts-login-open-redirect',
          '--case',
          'ts-clean-readme',
          '--work',
          join(work, 'live'),
          '--results',
          results,
          '--name',
          'fake model',
          '--judge',
          '--model',
          'fake-chat-model',
          '--base-url',
          model.apiRoot,
        ],
        { env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('margin eval: kindCompatible/fake-chat-model');
      expect(run.stdout).toMatch(/ts-cart-average-empty\s+typescript\s+defect\s+1\s+1\s+1\s+0\s+1\/1/);
      expect(run.stdout).toContain('precision 0.50  recall 0.50  F0.5 0.50');
      const saved = JSON.parse(await readFile(join(results, 'fake-model.json'), 'utf8'));
      expect(saved).toMatchObject({
        mode: 'live',
        judge: true,
        model: 'kindCompatible/fake-chat-model',
        totals: { cases: 3, expected: 2, candidates: 2, found: 1, cleanCases: 1, falseFindingsOnClean: 0 },
      });
      expect(saved.cases.find((c: { id: string }) => c.id === 'ts-login-open-redirect')).toMatchObject({
        found: 0,
        falseFindings: 1,
      });
      expect(model.chats.some((c) => systemOf(c).startsWith(JUDGE_SYSTEM_PROMPT.slice(0, 40)))).toBe(true);
    } finally {
      await model.close();
    }
  });

  it('refuses a live run without a model, an unknown case, and a key given as a flag, in one line', async () => {
    const flagKey = 'sk-canary-eval-flag-7d3e9b1c';
    const [noModel, unknown, keyFlag] = await Promise.all([
      runCliInProcess(['eval', '--cases', CASES, '--case', 'ts-clean-readme'], {}),
      runCliInProcess(['eval', '--scripted', '--cases', CASES, '--case', 'nope'], {}),
      runCliInProcess(['eval', '--cases', CASES, '--model', 'm', `--api-key=${flagKey}`], {}),
    ]);
    expect(keyFlag).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'margin eval: --api-key is not accepted: the model key is read from MARGIN_AI_API_KEY only, so it never shows in a process list or shell history.\n',
    });
    expect(noModel).toMatchObject({
      code: 2,
      stderr: 'margin eval: Name the model with --model or MARGIN_AI_MODEL.\n',
    });
    expect(unknown).toMatchObject({ code: 2, stderr: `margin eval: No eval case nope in ${CASES}.\n` });
  });
});
