import { describe, expect, it } from 'vitest';
import type { Anchor } from '../anchor/anchor.js';
import type { EngineFinding } from '../engine-finding.js';
import { committable, inlineBody } from './comment-body.js';

const REPLACEMENT = 'const total = price * qty * (1 - discount);\nreturn total;';

function finding(overrides: { anchor?: Partial<Anchor>; lines?: [number, number]; suggestion?: string | null } = {}) {
  const [startLine, endLine] = overrides.lines ?? [42, 43];
  const suggestion = overrides.suggestion === undefined ? REPLACEMENT : overrides.suggestion;
  return {
    id: 'f1',
    source: 'model',
    chunk: 0,
    proposed: {
      path: 'src/billing.ts',
      quote: 'const total = price * qty;',
      startLine,
      endLine,
      category: 'bug',
      title: 'Total ignores the discount',
      evidence: '',
      claim: { kind: 'none', symbol: null, path: null },
      severity: 'error',
      confidence: 0.9,
      message: 'The discount is never applied.',
      suggestion,
      ruleId: null,
    },
    category: 'bug',
    severity: 'error',
    confidence: 0.9,
    title: 'Total ignores the discount',
    message: 'The discount is never applied.',
    suggestion,
    anchor: {
      path: 'src/billing.ts',
      startLine: 42,
      endLine: 43,
      side: 'new',
      scope: 'onChangedLine',
      method: 'quote',
      anchorText: 'const total = price * qty;',
      agreed: true,
      ...overrides.anchor,
    },
    path: 'src/billing.ts',
    enclosingSymbol: '',
    publication: 'published',
  } as EngineFinding;
}

describe('committable suggestions', () => {
  it('are a GitHub suggestion block replacing the commented lines', () => {
    const body = inlineBody(finding(), undefined, 'suggestionBlock');
    expect(body).toContain(`\`\`\`suggestion\n${REPLACEMENT}\n\`\`\``);
    expect(body).not.toContain('Suggested change:');
  });

  it('count on GitLab the lines above the comment, which sits on the range’s last line', () => {
    expect(inlineBody(finding(), undefined, 'suggestionBlockWithOffsets')).toContain(
      `\`\`\`suggestion:-1+0\n${REPLACEMENT}\n\`\`\``,
    );
    const single = finding({ anchor: { endLine: 42 }, lines: [42, 42], suggestion: 'return 0;' });
    expect(inlineBody(single, undefined, 'suggestionBlockWithOffsets')).toContain('```suggestion:-0+0\nreturn 0;\n```');
  });

  it('stay plain where the family takes none', () => {
    const body = inlineBody(finding());
    expect(body).toContain(`Suggested change:\n\`\`\`\n${REPLACEMENT}\n\`\`\``);
    expect(body).not.toContain('```suggestion');
  });

  it.each([
    ['moved to a nearby line', finding({ anchor: { method: 'snapped', note: '(about lines 40–41)' } })],
    ['found by a loose match of its quote', finding({ anchor: { method: 'fuzzy' } })],
    ['cut short of the lines it replaces', finding({ anchor: { endLine: 42 } })],
    ['on removed lines', finding({ anchor: { side: 'old', method: 'oldSide' } })],
    ['a diff, not replacement text', finding({ suggestion: '-const total = price * qty;\n+const total = net;' })],
    ['a diff with a hunk header', finding({ suggestion: '@@ -42,1 +42,1 @@\n const total = net;' })],
  ])('fall back to the plain block when the suggestion is %s', (_why, f) => {
    expect(committable(f)).toBe(false);
    const body = inlineBody(f, undefined, 'suggestionBlock');
    expect(body).toContain('Suggested change:');
    expect(body).not.toContain('```suggestion');
  });

  it('keep YAML list items, which begin with a dash, as replacement text', () => {
    expect(committable(finding({ suggestion: '- name: build\n- name: test' }))).toBe(true);
  });

  it('fence a replacement holding backticks with a longer fence', () => {
    const f = finding({ suggestion: 'const s = `a`;\nconst t = ```x```;' });
    expect(inlineBody(f, undefined, 'suggestionBlock')).toContain('````suggestion\n');
  });
});
