import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGitRepository } from '../git-repository.js';
import {
  ANCHOR_CORPUS_FINDINGS,
  ANCHOR_CORPUS_STEPS,
  anchorCorpusReviewer,
  type CorpusFinding,
} from '../testing/anchor-corpus.js';
import { runCliInProcess } from '../testing/in-process.js';

interface PostedFinding {
  title: string;
  filePath: string | null;
  startLine: number | null;
  side?: 'old';
  anchorMethod?: string;
}

/** Whitespace collapsed and trimmed: a quote and its line compare this way (tabs, CR, padding). */
const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');

describe('anchoring on real history (margin review of a git repository)', { timeout: 120_000 }, () => {
  let dir: string;
  let repo: string;
  let model: FakeChatModel;
  const reviewer = anchorCorpusReviewer();
  const posted = new Map<string, PostedFinding>();
  const coverage: Array<{ path: string; state: string; reason?: string }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-anchor-corpus-'));
    repo = join(dir, 'repo');
    writeGitRepository(repo, ANCHOR_CORPUS_STEPS);
    model = await startFakeChatModel({ respond: reviewer.respond });
    const env = {
      PATH: process.env.PATH ?? '',
      MARGIN_AI_BASE_URL: model.apiRoot,
      MARGIN_AI_MODEL: 'fake-chat-model',
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
    };
    const args = ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json'];
    // The reviewer gives at most 8 findings per chunk: review again until it has given them all.
    for (let run = 0; run < 20 && reviewer.pending() > 0; run++) {
      const out = await runCliInProcess([...args, '--fail-on', 'never'], env);
      expect(out).toMatchObject({ code: 0, stderr: '' });
      const report = JSON.parse(out.stdout);
      if (run === 0) coverage.push(...report.coverage.files);
      for (const f of report.findings as PostedFinding[]) posted.set(f.title.replace(/ defect$/, ''), f);
    }
  });
  afterAll(async () => {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The text of a line of the base (`main`) or head (`feature`) version, as git stores it. */
  const lineAt = (ref: string, path: string, line: number) =>
    execFileSync('git', ['show', `${ref}:${path}`], { cwd: repo, encoding: 'utf8' })
      .split('\n')
      [line - 1]?.replace(/\r$/, '');

  /** Why a finding is not where it must be, or undefined when it is. */
  function misplaced({ key, target }: CorpusFinding): string | undefined {
    const f = posted.get(key);
    if (!f) return 'missing from the result';
    if (target.outsideDiff) return f.startLine === null ? undefined : `posted on line ${f.startLine}`;
    if (f.startLine === null) return 'not posted on a line';
    const side = f.side ?? 'new';
    if (f.filePath !== target.path || side !== target.side) return `posted on ${f.filePath} ${side}`;
    const text = lineAt(side === 'old' ? 'main' : 'feature', target.path, f.startLine);
    return text !== undefined && squeeze(text) === squeeze(target.text)
      ? undefined
      : `line ${side} ${f.startLine} has other text (${f.anchorMethod})`;
  }

  it('reviews every file of the corpus, long comment lines included (none taken for generated)', () => {
    expect(coverage.filter((f) => f.state !== 'reviewed')).toEqual([]);
    expect(reviewer.pending()).toBe(0);
  });

  it('posts 100% of the findings on a line of the diff with exactly the quoted text, or on no line', () => {
    const wrong = ANCHOR_CORPUS_FINDINGS.map((f) => [f.key, misplaced(f)]).filter(([, why]) => why !== undefined);
    expect(wrong).toEqual([]);
    // Each way of finding a quote was needed: exact or cut, miscopied, removed code.
    const methods = new Set(ANCHOR_CORPUS_FINDINGS.map((f) => posted.get(f.key)?.anchorMethod));
    expect([...methods].sort()).toEqual(['fuzzy', 'oldSide', 'quote', undefined]);
  });

  it('anchors a removed line quoted with its old number on the old side, where its replacement was edited', () => {
    expect(posted.get('rates-replaced/raw')).toMatchObject({ side: 'old', startLine: 10, anchorMethod: 'oldSide' });
    expect(posted.get('rates-removed/raw')).toMatchObject({ side: 'old', startLine: 14, anchorMethod: 'oldSide' });
  });
});
