import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicFake } from '../testing/anthropic-fake.js';
import { bundleCli, runCliProcess } from '../testing/cli-process.js';
import { runCliInProcess } from '../testing/in-process.js';
import { divisionReviewer, writeFeatureRepository } from '../testing/review-fixtures.js';
import { findingsAnswer, isVerifying } from '../testing/review-scripts.js';
import { sarifProblems } from '../testing/sarif-schema.js';

const KEY = 'sk-canary-review-key-5b8d1f3a9c7e';
/** A key someone typed as a flag: it must not be echoed anywhere. */
const FLAG_KEY = 'sk-canary-flag-key-0e4f2a6b8c1d';
/** Nothing but "\rmargin review: n/m files" rewritten in place, then the line cleared (ESC [K). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line escape is what is checked.
const PROGRESS_ONLY = /^(\rmargin review: \d+\/\d+ files)+\r\u001b\[K$/;
const ESC = '\u001b';
const HAS_SCRIPT = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

describe('margin review of a local git repository', { timeout: 60_000 }, () => {
  let dir: string;
  let repo: string;
  let shas: string[];
  const models: FakeChatModel[] = [];

  /** A fake model of its own per test, so tests may run their CLI processes at the same time. */
  async function model(respond: Parameters<FakeChatModel['respondWith']>[0]) {
    const m = await startFakeChatModel({ respond });
    models.push(m);
    return m;
  }
  const review = (m: FakeChatModel, extra: string[], env: Record<string, string> = {}) =>
    runCliProcess(
      ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--model', 'fake-chat-model', ...extra],
      {
        env: { MARGIN_AI_BASE_URL: m.apiRoot, MARGIN_AI_API_KEY: KEY, MARGIN_ALLOW_PRIVATE_EGRESS: 'true', ...env },
      },
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-review-cli-'));
    repo = join(dir, 'repo');
    shas = writeFeatureRepository(repo);
  });
  afterAll(async () => {
    await Promise.all(models.map((m) => m.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('reviews the change from the merge base and prints the job-result shapes as JSON; a finding at --fail-on exits 1', async () => {
    const m = await model(divisionReviewer('error'));
    const run = await review(m, ['--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.revision).toMatchObject({ headSha: shas[2], baseSha: shas[0], mergeBaseSha: shas[0] });
    expect(out.findings).toEqual([
      expect.objectContaining({
        filePath: 'src/billing.ts',
        startLine: 12,
        endLine: 12,
        severity: 'error',
        category: 'bug',
        title: 'Division by zero for an empty order',
        publication: 'published',
        anchorMethod: 'quote',
        fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      }),
    ]);
    const coverage = Object.fromEntries(
      out.coverage.files.map(
        (f: { path: string; state: string; reason?: string; changeType: string; previousPath?: string }) => [
          f.path,
          [f.changeType, f.state, f.reason ?? null, f.previousPath ?? null],
        ],
      ),
    );
    expect(coverage).toEqual({
      '.margin/config.yml': ['modified', 'reviewed', null, null],
      'assets/logo.png': ['modified', 'skipped', 'binary', null],
      'docs/guide.md': ['modified', 'skipped', 'excludedByConfig', null],
      'scripts/run.bat': ['modified', 'reviewed', null, null],
      'src/billing.ts': ['modified', 'reviewed', null, null],
      'src/formatting.ts': ['renamed', 'skipped', 'renameOnly', 'src/format.ts'],
      'src/legacy.ts': ['deleted', 'skipped', 'deleteOnly', null],
    });
    expect(out).toMatchObject({ failOn: 'error', failing: 1, partial: false, model: 'kindCompatible/fake-chat-model' });
    expect(out.usage.inputTokens).toBeGreaterThan(0);
    // The model saw git's diff: CRLF kept as a visible change of one line, the head commit's subject as the title.
    const prompts = m.chats.map((c) => JSON.stringify(c.messages)).join('\n');
    expect(prompts).toContain('echo 2');
    expect(prompts).toContain('Drop the legacy flag');
    expect(prompts).not.toContain(KEY);
  });

  it('writes SARIF 2.1.0 that the official schema accepts, and exits 0 with --fail-on never', async () => {
    const m = await model(divisionReviewer('warning'));
    const file = join(dir, 'margin.sarif');
    const run = await review(m, ['--format', 'sarif', '--output', file, '--fail-on', 'never']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, '', '']);
    const log = JSON.parse(await readFile(file, 'utf8'));
    expect(sarifProblems(log)).toEqual([]);
    const result = log.runs[0].results[0];
    expect(result).toMatchObject({
      ruleId: 'margin/bug',
      level: 'warning',
      message: { text: expect.stringContaining('Division by zero') },
      partialFingerprints: { 'marginFindingFingerprint/v1': expect.stringMatching(/^[0-9a-f]{16}$/) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/billing.ts', uriBaseId: '%SRCROOT%' },
            region: { startLine: 12 },
          },
        },
      ],
    });
    expect(log.runs[0].tool.driver.rules[result.ruleIndex].id).toBe('margin/bug');
  });

  it('exits 0 when findings stay below --fail-on, 1 when one reaches it', async () => {
    const m = await model(divisionReviewer('warning'));
    const [below, reaching] = await Promise.all([review(m, []), review(m, ['--fail-on', 'warning'])]);
    expect(below.code).toBe(0);
    expect(below.stdout).toContain('src/billing.ts:12  warning  bug  Division by zero for an empty order');
    expect(below.stdout).toContain('0 findings at or above error.');
    expect(reaching.code).toBe(1);
    expect(reaching.stdout).toContain('1 finding at or above warning.');
  });

  it('prints the summary and the findings as Markdown, from any folder of the repository', async () => {
    const m = await model(divisionReviewer('error'));
    const run = await runCliProcess(
      [
        'review',
        '--repo',
        join(repo, 'src'),
        '--base',
        'main',
        '--head',
        'feature',
        '--format',
        'markdown',
        '--fail-on',
        'never',
      ],
      {
        env: { MARGIN_AI_BASE_URL: m.apiRoot, MARGIN_AI_MODEL: 'fake-chat-model', MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('### Margin review');
    expect(run.stdout).toContain('- **error** · bug — **Division by zero for an empty order** (`src/billing.ts:12`)');
  });

  it('says in one line why it could not review, with exit status 2 and never the key', async () => {
    const quiet = await model(() => findingsAnswer());
    const refusing = await model(() => ({
      status: 401,
      errorBody: { error: { message: `Incorrect API key provided: ${KEY}` } },
    }));
    const garbled = await model((r) => (isVerifying(r) ? findingsAnswer() : { content: 'I would rather not say.' }));
    const config = join(dir, 'missing.yml');
    const cases: Array<[Promise<Awaited<ReturnType<typeof runCliProcess>>>, RegExp]> = [
      [
        runCliProcess(['review', '--repo', dir, '--base', 'main', '--model', 'm', '--base-url', quiet.apiRoot], {
          env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
        }),
        /^margin review: .*margin-review-cli-\w+ is not a git repository\.\n$/,
      ],
      [review(quiet, ['--head', 'no-such-branch']), /^margin review: --head no-such-branch is not a commit in .*\.\n$/],
      [review(quiet, ['--base', 'no-such-base']), /^margin review: --base no-such-base is not a commit in .*\.\n$/],
      [
        review(quiet, ['--api-key', FLAG_KEY]),
        /^margin review: --api-key is not accepted: the model key is read from MARGIN_AI_API_KEY only, so it never shows in a process list or shell history\.\n$/,
      ],
      [
        review(quiet, [`--key=${FLAG_KEY}`]),
        /^margin review: --key is not accepted: the model key is read from MARGIN_AI_API_KEY only/,
      ],
      [
        review(quiet, ['--format', 'json', '--openai-api-key', FLAG_KEY]),
        /^margin review: --openai-api-key is not accepted: the model key is read from MARGIN_AI_API_KEY only/,
      ],
      [
        review(quiet, ['--scm-token', FLAG_KEY]),
        /^margin review: --scm-token is not accepted: the provider token is read from MARGIN_SCM_TOKEN only/,
      ],
      [
        runCliProcess(['review', '--repo', repo, '--model', 'm'], { env: {} }),
        /^margin review: Name the branch the change goes into with --base/,
      ],
      [
        review(quiet, ['--format', 'html']),
        /^margin review: --format must be one of text, json, sarif, markdown \(got 'html'\)\.\n$/,
      ],
      [
        review(quiet, ['--fail-on', 'fatal']),
        /^margin review: --fail-on must be one of error, warning, suggestion, never/,
      ],
      [review(quiet, ['--publish']), /^margin review: --publish needs --pr/],
      [review(quiet, ['--colour']), /^margin review: Unknown option --colour\.\n$/],
      [review(quiet, ['--config', config]), /^margin review: --config .*missing\.yml cannot be read\.\n$/],
      [
        runCliProcess(['review', '--repo', repo, '--base', 'main', '--head', 'feature'], { env: {} }),
        /^margin review: Name the model with --model or MARGIN_AI_MODEL\.\n$/,
      ],
      [
        review(quiet, [], { MARGIN_ALLOW_PRIVATE_EGRESS: 'false' }),
        /^margin review: The AI model settings are not usable: --base-url must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true\.\n$/,
      ],
      [review(quiet, ['--provider-kind', 'kindOracle']), /^margin review: --provider-kind must be one of kindCloudA, /],
      [
        review(quiet, ['--base-url', 'http://127.0.0.1:9/v1']),
        /^margin review: The model could not be used: .*could not be reached.*\n$/,
      ],
      [review(refusing, []), /^margin review: The model could not be used: .*(credentials|key).*\n$/i],
      [review(garbled, []), /^margin review: No part of the change could be reviewed \(unreadableAnswer\)/],
      [
        runCliProcess(
          ['review', '--pr', 'https://github.com/acme/app/pull/1', '--model', 'm', '--base-url', quiet.apiRoot],
          {
            env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
          },
        ),
        /^margin review: --pr needs a token for the provider in MARGIN_SCM_TOKEN/,
      ],
    ];
    const runs = await Promise.all(cases.map(([run]) => run));
    runs.forEach((run, i) => {
      const expected = cases[i]?.[1] as RegExp;
      expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
        code: 2,
        stderr: expect.stringMatching(expected),
        stdout: '',
      });
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(run.stderr).not.toContain(KEY);
      expect(run.stderr).not.toContain(FLAG_KEY);
      expect(run.stderr).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
    });
  });

  it('uses --config instead of the repository’s configuration', async () => {
    const m = await model(divisionReviewer('error'));
    const file = join(dir, 'strict.yml');
    await writeFile(file, 'exclude:\n  - "src/**"\n');
    const run = await review(m, ['--config', file, '--format', 'json']);
    expect(run.code).toBe(0);
    const states = JSON.parse(run.stdout).coverage.files.filter((f: { path: string }) => f.path.startsWith('src/'));
    expect(states.map((f: { reason: string }) => f.reason)).toEqual([
      'excludedByConfig',
      'excludedByConfig',
      'deleteOnly',
    ]);
  });

  it('talks to the kind MARGIN_AI_PROVIDER_KIND names: kindAssistant sends the Anthropic Messages API, not Chat Completions', async () => {
    const fake = await startAnthropicFake(divisionReviewer('error'));
    try {
      const run = await runCliProcess(
        ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json'],
        {
          env: {
            MARGIN_AI_PROVIDER_KIND: 'kindAssistant',
            MARGIN_AI_BASE_URL: fake.url,
            MARGIN_AI_MODEL: 'claude-sonnet-4-20250514',
            MARGIN_AI_API_KEY: KEY,
            MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
          },
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      const out = JSON.parse(run.stdout);
      expect(out.model).toBe('kindAssistant/claude-sonnet-4-20250514');
      expect(out.findings).toEqual([
        expect.objectContaining({ filePath: 'src/billing.ts', startLine: 12, publication: 'published' }),
      ]);
      // A catalog model: structured output through Anthropic's own JSON-schema mode, and its prices.
      expect(Object.keys(out.coverage.parsing)).toEqual(['nativeSchema']);
      expect(out.coverage.parsing.nativeSchema).toMatchObject({ ok: expect.any(Number), failed: 0 });
      expect(out.usage.estimatedCostUsd).toBeGreaterThan(0);

      // The wire shape of kindAssistant: POST /v1/messages, x-api-key and anthropic-version (no
      // bearer token), the system prompt as a top-level block, max_tokens, output_config.format.
      expect(fake.requests.length).toBeGreaterThanOrEqual(2);
      for (const request of fake.requests) {
        expect([request.method, request.path]).toEqual(['POST', '/v1/messages']);
        expect(request.headers['x-api-key']).toBe(KEY);
        expect(request.headers['anthropic-version']).toBe('2023-06-01');
        expect(request.headers.authorization).toBeUndefined();
        const body = request.json as Record<string, unknown>;
        expect(body).toMatchObject({
          model: 'claude-sonnet-4-20250514',
          max_tokens: expect.any(Number),
          system: [expect.objectContaining({ type: 'text', text: expect.any(String) })],
          output_config: { format: { type: 'json_schema', schema: expect.any(Object) } },
        });
        expect(body).not.toHaveProperty('response_format');
        expect((body.messages as Array<{ role: string }>).map((m) => m.role)).not.toContain('system');
      }
    } finally {
      await fake.close();
    }
  });

  it('writes its progress line to stderr only when stderr is a terminal, and never to stdout', async () => {
    const m = await model(divisionReviewer('warning'));
    const env = {
      PATH: process.env.PATH ?? '',
      MARGIN_AI_BASE_URL: m.apiRoot,
      MARGIN_AI_MODEL: 'fake-chat-model',
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
    };
    const args = (format: string) => [
      'review',
      '--repo',
      repo,
      '--base',
      'main',
      '--head',
      'feature',
      '--format',
      format,
    ];
    const [piped, terminal, terminalJson] = [
      await runCliInProcess(args('text'), env),
      await runCliInProcess(args('text'), env, { tty: { stderr: true } }),
      await runCliInProcess(args('json'), env, { tty: { stderr: true } }),
    ];
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(terminal.code).toBe(0);
    // "n/m files" as files are done, rewritten in place, and the line cleared before the report.
    expect(terminal.stderr).toMatch(PROGRESS_ONLY);
    const counts = [...terminal.stderr.matchAll(/(\d+)\/(\d+) files/g)].map((x) => [Number(x[1]), Number(x[2])]);
    const last = counts.at(-1) ?? [0, 0];
    expect(last[0]).toBe(last[1]);
    expect(last[1]).toBeGreaterThan(0);
    // stdout is the same report with or without a terminal on stderr: nothing of the progress in it.
    expect(terminal.stdout).toBe(piped.stdout);
    expect(terminal.stdout).toContain('src/billing.ts:12  warning  bug');
    expect(terminal.stdout).not.toMatch(/\d+\/\d+ files/);
    expect([terminal.stdout.includes('\r'), terminal.stdout.includes(ESC)]).toEqual([false, false]);
    expect(terminalJson.stderr).toMatch(PROGRESS_ONLY);
    expect(JSON.parse(terminalJson.stdout)).toMatchObject({ failOn: 'error', failing: 0 });
  });

  it.skipIf(!HAS_SCRIPT)(
    'on a real terminal (a pseudo-terminal from script(1)) the progress goes to the terminal and stdout stays the report',
    async () => {
      const m = await model(divisionReviewer('warning'));
      const cli = await bundleCli();
      const out = join(dir, 'pty-stdout.txt');
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, cli, 'review', '--repo', repo, '--base', 'main', '--head', 'feature']
        .map(quote)
        .join(' ');
      const child = spawn('script', ['-qec', `${command} > ${quote(out)}`, '/dev/null'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          TERM: 'dumb',
          MARGIN_AI_BASE_URL: m.apiRoot,
          MARGIN_AI_MODEL: 'fake-chat-model',
          MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let terminal = '';
      child.stdout.on('data', (chunk) => {
        terminal += chunk.toString();
      });
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(0);
      expect(terminal).toMatch(PROGRESS_ONLY);
      const stdout = await readFile(out, 'utf8');
      expect(stdout).toContain('src/billing.ts:12  warning  bug  Division by zero for an empty order');
      expect(stdout).not.toMatch(/\d+\/\d+ files/);
      expect([stdout.includes('\r'), stdout.includes(ESC)]).toEqual([false, false]);
    },
  );
});
