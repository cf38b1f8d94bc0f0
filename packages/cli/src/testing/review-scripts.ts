/**
 * Test support: a fake model's side of the review engine's conversations — what the engine asked,
 * the reviewing and verifying model's answers in the engine's schemas — and a pull request scenario
 * for the source-control fakes. Shared by the CLI's tests and the reference host's.
 */
import type { PullRequestScenario } from '@margin/core/testing';
import type { FakeChatAnswer, FakeChatRequest } from '@margin/providers/testing';

const text = (request: FakeChatRequest, role: string) =>
  request.messages
    .filter((m) => m.role === role)
    .map((m) => String(m.content ?? ''))
    .join('\n');

/** What the engine asked: its system prompt and the user turns. */
export const systemOf = (request: FakeChatRequest) => text(request, 'system');
export const userOf = (request: FakeChatRequest) => text(request, 'user');
export const isVerifying = (request: FakeChatRequest) => systemOf(request).startsWith('You check findings');

/** `n` lines, each `f(line number)`, ending with a newline. */
export const numbered = (n: number, f: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => f(i + 1)).join('\n')}\n`;

/**
 * A pull request with a two-hunk change, an added file, a lock file, a deleted file and a binary:
 * `src/billing.ts` line 42 becomes `  const total = price * qty;`, line 50 `  return total / count;`.
 */
export function billingScenario(number: number, headDigit = 'e'): PullRequestScenario {
  return {
    number,
    title: 'Compute invoice totals',
    description: 'Totals are now computed from price and quantity.',
    sourceBranch: `feature/totals-${number}`,
    targetBranch: 'main',
    headSha: headDigit.repeat(40),
    baseSha: 'd'.repeat(40),
    files: [
      {
        path: 'src/billing.ts',
        changeType: 'modified',
        oldText: numbered(60, (i) => `  step(${i});`),
        newText: numbered(60, (i) =>
          i === 42 ? '  const total = price * qty;' : i === 50 ? '  return total / count;' : `  step(${i});`,
        ),
      },
      { path: 'src/tax.ts', changeType: 'added', newText: 'export const rate = 0.2;\nexport const label = "vat";\n' },
      {
        path: 'pnpm-lock.yaml',
        changeType: 'modified',
        oldText: 'lockfileVersion: 9\n',
        newText: 'lockfileVersion: 10\n',
      },
      { path: 'src/legacy.ts', changeType: 'deleted', oldText: 'export const legacy = true;\n' },
      { path: 'assets/logo.png', changeType: 'modified', oldText: 'PNG1', newText: 'PNG2', binary: true },
    ],
    branchFiles: { main: {} },
  };
}

/** The reviewing model's answer: findings as the engine's schema asks for them. */
export function findingsAnswer(...findings: Array<Record<string, unknown>>): FakeChatAnswer {
  return {
    content: JSON.stringify({
      findings: findings.map((f) => ({
        quote: '',
        evidence: 'Seen in the diff.',
        claim: { kind: 'none', symbol: null, path: null },
        confidence: 90,
        suggestion: null,
        ruleId: null,
        ...f,
      })),
      fileNotes: null,
    }),
  };
}

/** The verifier confirming every finding it is shown with a high score. */
export function confirmAll(request: FakeChatRequest): FakeChatAnswer {
  const ids = [...userOf(request).matchAll(/^(F\d+)\. /gm)].map((m) => m[1]);
  return {
    content: JSON.stringify({
      items: ids.map((id) => ({
        id,
        score: 9,
        why: 'The defect is visible in the diff.',
        features: {
          isDefect: true,
          requiresAssumedInput: false,
          isQualityOpinion: false,
          targetsUnchangedCode: false,
          suggestionIsCorrect: null,
        },
        locatedQuote: null,
      })),
    }),
  };
}
