/** Wire values in words people read. One table per value set, used by every page that shows it. */

export const PROVIDER_FAMILIES = {
  suiteDevOps: 'Azure DevOps',
  gitHostA: 'GitHub',
  gitHostB: 'GitLab',
  gitHostC: 'Bitbucket',
} as const;
export type ProviderFamily = keyof typeof PROVIDER_FAMILIES;

/** A family in words; one a plugin registers is shown by its id. */
export const familyName = (family: string): string =>
  (PROVIDER_FAMILIES as Readonly<Record<string, string>>)[family] ?? family;

/** Which authentication kinds each family accepts (decisions.md, provider connections). */
export const AUTH_KINDS: Record<ProviderFamily, ReadonlyArray<{ value: string; label: string }>> = {
  suiteDevOps: [
    { value: 'personalAccessToken', label: 'Personal access token' },
    { value: 'oauthClientCredentials', label: 'Entra ID client credentials' },
  ],
  gitHostA: [
    { value: 'personalAccessToken', label: 'Personal access token' },
    { value: 'appInstallation', label: 'GitHub App installation' },
  ],
  gitHostB: [{ value: 'personalAccessToken', label: 'Personal access token' }],
  gitHostC: [{ value: 'personalAccessToken', label: 'API token or access token' }],
};

export const AI_KINDS = {
  kindCloudA: 'Azure OpenAI',
  kindDirect: 'OpenAI',
  kindProxy: 'Model proxy (LiteLLM)',
  kindCompatible: 'OpenAI-compatible server',
  kindAssistant: 'Anthropic',
  kindCloudB: 'AWS Bedrock',
  kindCloudC: 'Google Vertex AI',
} as const;
export type AiKind = keyof typeof AI_KINDS;

/** An AI provider kind in words; one a plugin registers is shown by its id. */
export const aiKindName = (kind: string): string => (AI_KINDS as Readonly<Record<string, string>>)[kind] ?? kind;

export const PURPOSES = {
  reviewDefault: 'Reviews files; the fallback for every other review purpose. Unmapped, reviews fail.',
  reviewTriage: 'Decides how much attention a file needs.',
  reviewLowEffort: 'Reviews small, low-risk changes.',
  reviewMediumEffort: 'Reviews ordinary changes.',
  reviewHighEffort: 'Reviews large or risky changes.',
  reviewVerification: 'Double-checks findings before they are posted.',
  memoryReconsideration: 'Reconsiders findings similar to dismissed ones.',
  embeddingDefault: 'Embeddings for similarity; unmapped, similarity falls back to comparing text.',
} as const;
export type Purpose = keyof typeof PURPOSES;

export const CAPABILITIES: Record<string, { title: string; does: string }> = {
  'sso-authentication': {
    title: 'Single sign-on',
    does: 'Sign-in through an identity provider; without it, local accounts only.',
  },
  'parallel-review-execution': {
    title: 'Parallel reviews',
    does: 'Several reviews at once (up to WORKER_MAX_CONCURRENT_REVIEW_JOBS); without it, one review at a time installation-wide.',
  },
  'multiple-scm-providers': {
    title: 'Several source-control connections',
    does: 'More than one source-control connection per client; without it, one.',
  },
  'crawl-configs': {
    title: 'Scheduled crawling',
    does: 'Crawl configurations that find pull requests on a schedule; without it, reviews come from webhooks or the API.',
  },
  budgeting: { title: 'Budgets', does: 'Spend caps and their enforcement; without it, no caps.' },
};

/** AI verification and probe failures, in words. */
export const AI_FAILURES: Record<string, string> = {
  credentials: 'The credentials were refused: check the API key.',
  endpointReachability: 'The endpoint could not be reached: check the base URL and the network path.',
  authorization: 'The credentials are valid but may not use this model or endpoint.',
  providerRejected: 'The provider rejected the request: check the model ids and settings.',
  capabilityMismatch: 'A model cannot do what its configuration or binding says (chat, embeddings, protocol).',
  policy: 'The tenant’s AI policy does not permit this provider kind or host; nothing was sent to it.',
  unknown: 'The provider answered in an unexpected way.',
};

/** Source-control verification failures, in words. */
export const SCM_FAILURES: Record<string, string> = {
  credentials: 'The credentials were refused.',
  authorization: 'The credentials lack a permission the connection needs.',
  notFound: 'The host or organization was not found.',
  rateLimited: 'The provider is rate-limiting these credentials.',
  quotaExceeded: 'The provider quota is used up.',
  unavailable: 'The provider is unavailable.',
  timeout: 'The provider did not answer in time.',
  invalidResponse: 'The provider answered something Margin does not understand.',
  rejected: 'The provider rejected the request.',
  egressRefused: 'Margin may not call this address (private or plain-http hosts need MARGIN_ALLOW_PRIVATE_EGRESS).',
};

export const PUBLICATION = {
  published: 'Posted as a review thread.',
  summaryOnly: 'Named in the summary only, not posted as a thread.',
  suppressed: 'Held back: it repeats another finding, an earlier post, an existing thread or a dismissed finding.',
  dropped: 'Held back: it did not pass the checks (verification, anchoring, claim checks).',
} as const;

/** Why the engine moved a finding down (`Finding.reason`); docs/review-engine.md, "What gets posted". */
export const FINDING_REASONS: Record<string, string> = {
  duplicateInRun: 'It repeats another finding of this review.',
  consolidated: 'The same point in three or more files: one finding for the pull request lists the places.',
  alreadyReported: 'An earlier review already posted it on this pull request.',
  existingThread: 'A thread next to these lines already makes this point.',
  dismissed: 'A similar finding was dismissed, or a similar thread was closed as won’t fix or by design.',
  verifierRejected: 'The verifying model rejected it (a score of 3 or less).',
  lowVerifierScore: 'The verifying model was not convinced (a score of 4 or 5).',
  qualityOpinion: 'The verifying model judged it a matter of taste, not a defect.',
  unchangedCode: 'It is about code this change does not touch.',
  refuted: 'The code the model was shown contradicts what it claims.',
  unknownPath: 'It names a file that is not part of this change.',
  informational: 'It is informational only.',
  categoryPolicy: 'Maintainability, documentation and test points go to the summary, not into threads.',
  hedged: 'It is phrased tentatively.',
  outsideDiff: 'It could not be placed on a line this change shows.',
  belowMinimumSeverity: 'Its severity is below the repository’s minimum.',
  fileBudget: 'Its file already has as many threads as one file gets.',
  pullRequestBudget: 'The review already has as many threads as one review gets.',
  publishFailed: 'The provider refused the thread.',
  outsideFocus: 'It is about code this push did not change, and it is not an error.',
  resolvedBefore: 'A finding like it was resolved before, and its code is still the fixed one.',
  noConsensus: 'Thorough mode: too few of the samples asked found it.',
};

/** Why a file was skipped, partly reviewed or not reviewed (`coverage.files[].reason`). */
export const COVERAGE_REASONS: Record<string, string> = {
  deleteOnly: 'Deleted: nothing to review.',
  binary: 'A binary file.',
  lockFile: 'A lock file.',
  vendored: 'Vendored code.',
  generated: 'Generated code.',
  excludedByConfig: 'Excluded by .margin/config.yml.',
  renameOnly: 'Moved without edits.',
  formattingOnly: 'Only whitespace changed.',
  noTextChange: 'No change to its text (a mode change).',
  hunkTooLarge: 'Changes too big for the model’s context window were not shown.',
  diffTruncatedByProvider: 'The provider sent only part of its diff.',
  unreadableAnswer: 'The model’s answer could not be read, even after a repair call.',
  contextTooSmall: 'It does not fit the model’s context window.',
  modelError: 'The model call failed.',
  unchangedSinceLastReview: 'The same change the last review of this pull request already reviewed.',
  budget: 'Left out by the spend cap per review (the budget entry below says what it did).',
  triageApproved: 'A small change the triage model judged not to change behaviour (its reason is in the protocol).',
};

/**
 * A reason code in words, or the code itself when the console does not know it yet. A code may
 * carry a detail after a colon (`modelError: The provider timed out.`), which is kept.
 */
export function reasonInWords(table: Record<string, string>, reason: string): string {
  const known = table[reason];
  if (known) return known;
  const colon = reason.indexOf(':');
  const words = colon > 0 ? table[reason.slice(0, colon).trim()] : undefined;
  return words ? `${words} ${reason.slice(colon + 1).trim()}`.trim() : reason;
}

export const COVERAGE_STATES: Record<string, string> = {
  reviewed: 'Reviewed',
  partial: 'Partly reviewed',
  carriedForward: 'Carried forward from an earlier revision',
  skipped: 'Skipped',
  reviewFailed: 'Review failed',
};

export const JOB_STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'stopped',
  'superseded',
  'cancelled',
  'budgetHeld',
  'budgetExceeded',
] as const;

export const EVENT_CATEGORIES = [
  'ai-call',
  'tool-call',
  'scm-call',
  'planning',
  'filtering',
  'duplicate-suppression',
  'memory',
  'publication',
  'operational',
] as const;

export const WEBHOOK_EVENTS = {
  pullRequestCreated: 'Pull request created',
  pullRequestUpdated: 'Pull request updated',
  pullRequestCommented: 'Pull request commented',
} as const;

/** Where a client's month-to-date spend stands against its monthly caps (`Budget.state`). */
export const BUDGET_STATES: Record<string, string> = {
  ok: 'Within its caps',
  soft: 'Past the monthly soft cap: reviews run a cheaper plan',
  hard: 'At the monthly hard cap: new reviews are held',
};

/** A client's six spend caps (`BudgetInput`), each in US$ or none. */
export const BUDGET_CAPS = {
  monthlySoftCapUsd: 'Monthly soft cap',
  monthlyHardCapUsd: 'Monthly hard cap',
  pullRequestSoftCapUsd: 'Per pull request soft cap',
  pullRequestHardCapUsd: 'Per pull request hard cap',
  incrementSoftCapUsd: 'Per review soft cap',
  incrementHardCapUsd: 'Per review hard cap',
} as const;
export type BudgetCap = keyof typeof BUDGET_CAPS;

export const SYSTEM_TENANT_ID = '11111111-1111-1111-1111-111111111111';

export const label = <T extends Record<string, string>>(table: T, value: string) =>
  (table as Record<string, string>)[value] ?? value;

/** A finding's citation as the job page shows it: `lib/tokens.ts, lines 20–26 at d4e5f6a`. */
export function citationInWords(c: { path: string; startLine: number; endLine: number; commit: string }): string {
  const lines = c.endLine > c.startLine ? `lines ${c.startLine}–${c.endLine}` : `line ${c.startLine}`;
  return `${c.path}, ${lines} at ${c.commit.slice(0, 7)}`;
}
