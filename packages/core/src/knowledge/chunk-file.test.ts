import { describe, expect, it } from 'vitest';
import { chunkFile, chunkMarkdown, isMarkdownPath, MAX_CHUNK_LINES } from './chunk-file.js';
import { compoundTerms, identifierParts, queryTerms } from './identifier-terms.js';
import { lineSymbolExtractor } from './symbol-extractor.js';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n');

describe('identifier terms', () => {
  it('splits camelCase, PascalCase, snake_case, SCREAMING_CASE and kebab-case into words', () => {
    expect(identifierParts('parseConfigFile')).toEqual(['parse', 'config', 'file']);
    expect(identifierParts('HTTPServerError')).toEqual(['http', 'server', 'error']);
    expect(identifierParts('MAX_RETRY_COUNT')).toEqual(['max', 'retry', 'count']);
    expect(identifierParts('user-id')).toEqual(['user', 'id']);
    expect(compoundTerms('const x = retryWithBackoff(max_attempts); plain')).toBe('retry with backoff max attempts');
    expect(queryTerms('retryWithBackoff config')).toEqual(['retrywithbackoff', 'retry', 'with', 'backoff', 'config']);
  });
});

describe('chunks', () => {
  it('keeps small files whole and cuts long ones into overlapping windows of at most 120 lines', () => {
    expect(chunkFile(lines(10), [])).toEqual([
      expect.objectContaining({ startLine: 1, endLine: 10, content: lines(10) }),
    ]);
    const long = chunkFile(lines(250), []);
    expect(long.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 100],
      [91, 190],
      [181, 250],
    ]);
    expect(long.every((c) => c.endLine - c.startLine + 1 <= MAX_CHUNK_LINES)).toBe(true);
    expect(chunkFile('\n\n', [])).toEqual([]);
  });

  it('cuts at top-level definitions, keeping whole definitions together', async () => {
    const text = [
      lines(5, '// header'),
      'export function a() {',
      lines(70, '  a'),
      '}',
      'export function b() {',
      lines(70, '  b'),
      '}',
    ].join('\n');
    const symbols = (await lineSymbolExtractor.extract('x.ts', text)) ?? [];
    expect(symbols.map((s) => [s.name, s.line, s.endLine])).toEqual([
      ['a', 6, 77],
      ['b', 78, 149],
    ]);
    expect(chunkFile(text, symbols).map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 77],
      [78, 149],
    ]);
  });

  it('cuts Markdown at its headings, not at a # inside fenced code, joining only small sections', () => {
    const text = [
      '# Deployments', // 1
      'How we ship.', // 2
      '## Rollback', // 3
      lines(45, 'rollback step'), // 4-48
      '```bash', // 49
      '# not a heading: a shell comment', // 50
      '```', // 51
      '## Hotfixes', // 52
      lines(30, 'hotfix step'), // 53-82
      '### Approvals', // 83
      lines(5, 'approval'), // 84-88
      '## Runbook', // 89
      lines(130, 'runbook line'), // 90-219
    ].join('\n');
    expect(chunkMarkdown(text).map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 2],
      [3, 51],
      [52, 88],
      [89, 188],
      [179, 219],
    ]);
    expect(chunkMarkdown(text).every((c) => c.endLine - c.startLine + 1 <= MAX_CHUNK_LINES)).toBe(true);
    expect(chunkMarkdown('\n')).toEqual([]);
    expect(isMarkdownPath('Team/Getting-Started.md')).toBe(true);
    expect(isMarkdownPath('src/index.ts')).toBe(false);
  });
});
