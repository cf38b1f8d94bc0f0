/**
 * The review the browser suite watches: Margin's own engine reviews a pull request on the GitHub fake
 * with a model on the fake model server, scripted so that the result has a finding in every
 * publication state and files in several coverage states. The reviewing model's answer is held until
 * the test has seen the job running, so the job page's live progress can be watched.
 */
import type { FakeChatAnswer, FakeChatModel, FakeChatRequest } from '@margin/providers/testing';
import { billingScenario, confirmAll, findingsAnswer, isVerifying, userOf } from '@margin/server-express/test-kits';

/**
 * Pull request #42, the one the webhook fixture names: `src/billing.ts` (lines 42 and 50 changed) and
 * `src/tax.ts` (added) are reviewed; `pnpm-lock.yaml`, `assets/logo.png` (binary) and `src/legacy.ts`
 * (deleted) are skipped without a model call.
 */
export const PULL_REQUEST = billingScenario(42);

/** What the reviewing model proposes, by what the engine makes of each. */
export const PROPOSED = {
  /** An error the verifier confirms: posted as a thread. */
  posted: {
    path: 'src/billing.ts',
    quote: 'const total = price * qty;',
    startLine: 42,
    endLine: 42,
    category: 'bug',
    title: 'Total ignores the discount',
    severity: 'error',
    message: 'The total is computed from price and quantity only, so a discounted order is charged in full.',
    suggestion: '  const total = price * qty - discount;',
  },
  /** The same point on the same line again: suppressed as `duplicateInRun`. */
  repeated: {
    path: 'src/billing.ts',
    quote: 'const total = price * qty;',
    startLine: 42,
    endLine: 42,
    category: 'bug',
    title: 'Discount dropped from the invoice total',
    severity: 'warning',
    message: 'Orders with a discount are invoiced at the undiscounted price times quantity.',
  },
  /** A maintainability point: summary only, `categoryPolicy`. */
  style: {
    path: 'src/tax.ts',
    quote: 'export const label = "vat";',
    startLine: 2,
    endLine: 2,
    category: 'maintainability',
    title: 'Tax label spelled out twice',
    severity: 'warning',
    message: 'The label "vat" repeats the name the invoice template already derives from the tax rate.',
  },
  /** A bug the verifier scores 5: summary only, `lowVerifierScore`. */
  doubted: {
    path: 'src/billing.ts',
    quote: 'return total / count;',
    startLine: 50,
    endLine: 50,
    category: 'bug',
    title: 'Division by zero for an order without lines',
    severity: 'warning',
    message: 'The average divides by count, which is zero for an order without lines.',
  },
  /** A bug the verifier scores 2: dropped, `verifierRejected`. */
  rejected: {
    path: 'src/tax.ts',
    quote: 'export const rate = 0.2;',
    startLine: 1,
    endLine: 1,
    category: 'bug',
    title: 'Tax rate is a fixed literal',
    severity: 'warning',
    message: 'The tax rate is fixed at 0.2, so reduced-rate goods are taxed at the standard rate.',
  },
  /** About a file the change does not contain: dropped, `unknownPath`. */
  invented: {
    path: 'src/invoice.ts',
    quote: 'const number = Date.now();',
    startLine: 12,
    endLine: 12,
    category: 'bug',
    title: 'Invoice numbers can collide',
    severity: 'error',
    message: 'Invoice numbers come from the clock, so two invoices created in the same millisecond share a number.',
  },
} as const;

/**
 * Findings whose titles carry markup, as a model might write it (or be led to by the code it reads):
 * the engine puts titles into the review summary, which the job page renders as markdown. Titles are
 * cut at 80 characters, hence two.
 */
export const HOSTILE = {
  /** Inline HTML with a script. */
  script: {
    ...PROPOSED.posted,
    title: 'Discount lost <script>window.marginPwned = true</script>',
    message: 'The discount never reaches the total, so every discounted order is charged the full price.',
  },
  /** A `javascript:` link beside an ordinary one. */
  links: {
    ...PROPOSED.doubted,
    title: '[Run it](javascript:alert(1)) or see [the spec](https://example.com/s)',
    message: 'An order without lines makes the average divide by zero and return NaN as its total.',
  },
} as const;

/** The verifier's score by finding title; the rest are confirmed with 9. */
const SCORES: Record<string, number> = { [PROPOSED.doubted.title]: 5, [PROPOSED.rejected.title]: 2 };

/** `confirmAll`'s verdicts, with the scores above for the findings they name. */
function verdicts(request: FakeChatRequest): FakeChatAnswer {
  const titles = new Map(
    [...userOf(request).matchAll(/^(F\d+)\. .*\nTitle: (.*)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  const answer = JSON.parse(confirmAll(request).content ?? '{}') as { items: Array<{ id: string; score: number }> };
  for (const item of answer.items) item.score = SCORES[titles.get(item.id) ?? ''] ?? item.score;
  return { content: JSON.stringify(answer) };
}

export interface ScriptedReview {
  /** Lets the reviewing model answer; until then the review waits on it. Safe to call again. */
  release(): void;
  /** Holds the reviewing model's next answers again, until the next `release()`. */
  hold(): void;
  /** What the reviewing model proposes from now on (`PROPOSED` until this is called). */
  propose(...findings: ReadonlyArray<Record<string, unknown>>): void;
}

/**
 * Scripts the model: reviews of the pull request propose `PROPOSED` (the first answer waits for
 * `release`), verification scores them, and every other call (probe, verify) answers `OK`.
 */
export function scriptReview(model: FakeChatModel): ScriptedReview {
  let proposed: ReadonlyArray<Record<string, unknown>> = Object.values(PROPOSED);
  let release = () => {};
  let released = Promise.resolve();
  const hold = () => {
    released = new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  hold();
  model.respondWith(async (request) => {
    if (isVerifying(request)) return verdicts(request);
    if (!userOf(request).includes('## File: src/billing.ts')) return { content: 'OK' };
    await released;
    return findingsAnswer(...proposed);
  });
  return {
    release: () => release(),
    hold,
    propose: (...findings) => {
      proposed = findings;
    },
  };
}
