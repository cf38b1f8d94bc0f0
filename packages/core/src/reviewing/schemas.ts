import { z } from 'zod';
import { MAX_STORED_INTEGER, storedIntegerMessage } from '../kernel/index.js';
import { EVENT_CATEGORIES } from '../review-engine/index.js';
import { providerFamily } from '../scm/index.js';
import { FINDING_STATES } from './finding-record.js';
import { JOB_STATUSES, JOB_TRIGGERS } from './job-record.js';
import { MEMORY_INTENTS, MEMORY_SOURCES } from './memory-record.js';

const text = (max: number) => z.string().trim().min(1).max(max);
const sha = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{7,64}$/, 'must be a commit SHA (hex)');
const timestamp = z.string().meta({ format: 'date-time' });

export const JobRepositoryInput = z.object({
  externalRepositoryId: text(300),
  ownerOrNamespace: text(300),
  projectPath: text(500),
});

export const JobCodeReviewInput = z.object({
  platform: z.enum(['pullRequest', 'mergeRequest']),
  externalReviewId: text(100),
  number: z.number().int().min(1, 'must be at least 1').max(MAX_STORED_INTEGER, storedIntegerMessage),
});

export const JobRevisionInput = z.object({ headSha: sha, baseSha: sha, providerRevisionId: text(100).optional() });

export const SubmitJobInput = z
  .object({
    provider: providerFamily,
    hostBaseUrl: z.url({ protocol: /^https?$/ }).max(1000),
    repository: JobRepositoryInput,
    codeReview: JobCodeReviewInput,
    reviewRevision: JobRevisionInput.optional(),
  })
  .meta({ id: 'SubmitJobInput' });

export const JobAccepted = z
  .object({ jobId: z.string(), status: z.literal('queued'), attempt: z.number().int(), submittedAt: timestamp })
  .meta({ id: 'JobAccepted' });

/** Where a finding's knowledge came from: a passage of a code-knowledge source at a commit. */
const KnowledgeCitationView = z
  .object({
    sourceId: z.string(),
    path: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    commit: z.string(),
  })
  .meta({ id: 'KnowledgeCitation' });

const Finding = z
  .object({
    id: z.string(),
    fingerprint: z
      .string()
      .meta({ description: 'Stable across rewording and line shifts; the same finding keeps it on later pushes.' }),
    filePath: z.string().nullable(),
    startLine: z.number().int().nullable(),
    endLine: z.number().int().nullable(),
    side: z
      .literal('old')
      .optional()
      .meta({ description: 'Present when the lines are of the base version (removed code).' }),
    severity: z.enum(['error', 'warning', 'suggestion', 'info']),
    confidence: z.number().min(0).max(100),
    category: z.string(),
    title: z.string().optional(),
    message: z.string(),
    suggestion: z.string().optional(),
    publication: z.enum(['published', 'summaryOnly', 'suppressed', 'dropped']),
    reason: z.string().optional().meta({ description: 'Why it was not posted (or how it was moved), as a code.' }),
    providerThreadId: z.string().optional(),
    memoryId: z
      .string()
      .optional()
      .meta({ description: 'With `reason: memory`: the thread-memory record the finding matched.' }),
    source: z.enum(['model', 'secretScan', 'bidiScan']).optional(),
    anchorMethod: z.enum(['quote', 'fuzzy', 'line', 'oldSide', 'snapped']).optional(),
    scope: z.enum(['onChangedLine', 'adjacentToChange', 'outsideChange']).optional(),
    verifierScore: z.number().int().min(0).max(10).optional(),
    places: z
      .array(z.object({ path: z.string(), line: z.number().int().nullable() }))
      .optional()
      .meta({ description: 'For one finding standing for the same root cause in several files.' }),
    consensus: z
      .object({ agreed: z.number().int(), samples: z.number().int() })
      .optional()
      .meta({ description: 'Thorough mode: how many of the samples asked found it.' }),
    citations: z
      .array(KnowledgeCitationView)
      .optional()
      .meta({ description: 'The code-knowledge passages (search_knowledge, get_symbol) the finding relies on.' }),
  })
  .meta({ id: 'Finding' });

const CoverageFile = z.object({
  path: z.string(),
  previousPath: z.string().optional(),
  changeType: z.enum(['added', 'modified', 'deleted', 'renamed']),
  state: z.enum(['reviewed', 'partial', 'carriedForward', 'skipped', 'reviewFailed']),
  reason: z.string().optional(),
  tokens: z.number().int().optional(),
  tier: z.enum(['low', 'medium', 'high']).optional(),
});

const CoverageBudget = z
  .object({
    softUsd: z.number().optional(),
    hardUsd: z.number().optional(),
    degraded: z
      .array(
        z.object({
          step: z.enum(['thoroughOff', 'verifySevereOnly', 'mediumForHigh', 'triageForLow', 'skipFiles']),
          estimateBeforeUsd: z.number(),
          estimateAfterUsd: z.number(),
          files: z.number().int().optional(),
        }),
      )
      .meta({ description: 'Steps taken, in order, to bring the estimate under the soft cap.' }),
    held: z
      .object({ cheapestUsd: z.number(), estimateUsd: z.number(), spentUsd: z.number().optional() })
      .optional()
      .meta({
        description:
          'Even the cheapest part was estimated over the hard cap: nothing was sent to a reviewing model (`spentUsd`: what the triage calls before it cost).',
      }),
    stopped: z
      .object({ spentUsd: z.number(), chunksNotStarted: z.number().int(), files: z.number().int() })
      .optional()
      .meta({ description: 'The spend reached the hard cap: no chunk started after it.' }),
  })
  .meta({
    id: 'CoverageBudget',
    description:
      'The spend caps (US$ per review) this run was held to and what they changed; absent when none applied.',
  });

const Coverage = z
  .object({
    files: z.array(CoverageFile),
    counts: z.object({
      reviewed: z.number().int(),
      partial: z.number().int(),
      carriedForward: z.number().int(),
      skipped: z.number().int(),
      reviewFailed: z.number().int(),
    }),
    complete: z.boolean(),
    listingTruncated: z.object({ limit: z.number().int(), reason: z.string() }).optional(),
    injectionSuspected: z.boolean(),
    tokensApproximate: z.boolean(),
    estimate: z.object({ inputTokens: z.number(), costUsd: z.number() }).optional(),
    parsing: z.record(z.string(), z.object({ ok: z.number(), repaired: z.number(), failed: z.number() })).optional(),
    incremental: z
      .object({ sinceHeadSha: z.string(), relation: z.string(), focused: z.boolean() })
      .optional()
      .meta({ description: 'The review this one builds on, how the new head relates to it, and whether it focused.' }),
    budget: CoverageBudget.optional(),
  })
  .meta({
    id: 'CoverageManifest',
    description:
      'Every changed file: reviewed, partially reviewed, carried forward, skipped or failed, with the reason.',
  });

const JobResult = z.object({
  summary: z.string().nullable(),
  findings: z.array(Finding),
  coverage: Coverage,
  partial: z.boolean().optional().meta({ description: 'Some changed file was not fully reviewed.' }),
});

const JobUsageView = z.object({
  inputTokens: z.number(),
  cachedInputTokens: z.number(),
  outputTokens: z.number(),
  estimatedCostUsd: z.number(),
  byModel: z.array(
    z.object({
      connectionId: z.string(),
      remoteModelId: z.string(),
      purpose: z.string(),
      inputTokens: z.number(),
      cachedInputTokens: z.number(),
      outputTokens: z.number(),
      estimatedCostUsd: z.number(),
    }),
  ),
});

const jobFields = {
  jobId: z.string(),
  clientId: z.string(),
  status: z.enum(JOB_STATUSES),
  trigger: z.enum(JOB_TRIGGERS),
  provider: providerFamily,
  hostBaseUrl: z.string(),
  repository: JobRepositoryInput,
  codeReview: JobCodeReviewInput,
  reviewRevision: JobRevisionInput.nullable(),
  attempt: z.number().int(),
  submittedAt: timestamp,
  startedAt: timestamp.nullable(),
  completedAt: timestamp.nullable(),
  progress: z.object({ filesTotal: z.number().int(), filesDone: z.number().int() }),
  configuration: z
    .object({
      configurationId: z.string().nullable(),
      reviewTemperature: z.number().nullable(),
      knowledgeSourceScopeMode: z.string().nullable(),
      knowledgeSourceIds: z.array(z.string()),
    })
    .meta({ description: 'What the job runs under: the configuration that queued it and its settings at the time.' }),
  usage: JobUsageView.nullable(),
  error: z.string().nullable(),
};

export const JobStatusView = z.object({ ...jobFields, result: JobResult.nullable() }).meta({ id: 'JobStatus' });

export const JobSummaryView = z
  .object({
    ...jobFields,
    result: JobResult.omit({ findings: true, coverage: true })
      .extend({ coverage: Coverage.omit({ files: true }), findingCount: z.number().int() })
      .nullable(),
  })
  .meta({ id: 'JobSummary', description: 'A job as listed: without its findings.' });

export const JobList = z
  .object({ items: z.array(JobSummaryView), nextCursor: z.string().nullable() })
  .meta({ id: 'JobList' });

export const JobListQuery = z.object({
  status: z.enum(JOB_STATUSES).optional(),
  repositoryId: z.string().max(300).optional(),
  pullRequestId: z.coerce.number().int().min(1).max(MAX_STORED_INTEGER, storedIntegerMessage).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const JobMoved = z
  .object({ jobId: z.string(), status: z.enum(JOB_STATUSES), attempt: z.number().int() })
  .meta({ id: 'JobMoved' });

const BlockCoordinates = {
  providerScopePath: text(512),
  providerProjectKey: text(300),
  repositoryId: text(300),
  pullRequestId: z.number().int().min(1).max(MAX_STORED_INTEGER, storedIntegerMessage),
};

export const BlockInput = z.object({ ...BlockCoordinates, reason: text(2000) }).meta({ id: 'BlockPullRequestInput' });
export const UnblockInput = z.object(BlockCoordinates).meta({ id: 'UnblockPullRequestInput' });
export const Unblocked = UnblockInput.extend({ unblocked: z.boolean() }).meta({ id: 'Unblocked' });

export const BlockView = z
  .object({
    id: z.string(),
    ...BlockCoordinates,
    reason: z.string(),
    blockedByUserId: z.string().nullable(),
    blockedAt: timestamp,
  })
  .meta({ id: 'BlockedPullRequest' });

export const BlockList = z
  .object({ items: z.array(BlockView), nextCursor: z.string().nullable() })
  .meta({ id: 'BlockedPullRequestList' });

export const DismissInput = z
  .object({ findingMessage: text(4000), filePath: text(1000).optional(), label: text(200).optional() })
  .meta({ id: 'DismissFindingInput' });

export const DismissalView = z
  .object({
    id: z.string(),
    clientId: z.string(),
    findingMessage: z.string(),
    filePath: z.string().nullable(),
    label: z.string().nullable(),
    createdAt: timestamp,
    createdByUserId: z.string().nullable(),
  })
  .meta({ id: 'Dismissal' });

export const DismissalList = z
  .object({ items: z.array(DismissalView), nextCursor: z.string().nullable() })
  .meta({ id: 'DismissalList' });

export const MemoryListQuery = z.object({
  filePath: z.string().trim().min(1).max(1000).optional(),
  source: z.enum(MEMORY_SOURCES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const MemoryView = z
  .object({
    id: z.string(),
    clientId: z.string(),
    source: z.enum(MEMORY_SOURCES),
    intent: z.enum(MEMORY_INTENTS),
    filePath: z.string().nullable(),
    summary: z.string(),
    findingFingerprint: z.string().nullable(),
    providerThreadId: z.string().nullable(),
    repositoryId: z.string().nullable().meta({ description: 'Null for a dismissal: it applies in every repository.' }),
    pullRequestId: z.number().int().nullable(),
    createdAt: timestamp,
    createdBy: z
      .string()
      .nullable()
      .meta({ description: 'The login of the person who rejected it in a reply, or the dismissing user id.' }),
  })
  .meta({ id: 'ThreadMemory' });

export const MemoryList = z
  .object({ items: z.array(MemoryView), nextCursor: z.string().nullable() })
  .meta({ id: 'ThreadMemoryList' });

export const ProtocolQuery = z.object({
  includeEvents: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v !== 'false')
    .meta({ description: '`false` keeps event rows and metadata but leaves out their bodies. Default true.' }),
  eventCategory: z.enum(EVENT_CATEGORIES).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(100)
    .meta({ description: 'Passes per page, 1–200 (default 100); the next page’s cursor is in `X-Next-Cursor`.' }),
  cursor: z.string().max(500).optional().meta({ description: '`X-Next-Cursor` of the previous page.' }),
});

const ProtocolEventView = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string(),
  eventCategory: z.enum(EVENT_CATEGORIES),
  occurredAt: timestamp,
  durationMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  body: z.unknown().nullable(),
});

export const ProtocolPassView = z
  .object({
    id: z.string(),
    jobId: z.string(),
    attempt: z.number().int(),
    stage: z.string(),
    label: z.string(),
    filePath: z.string().nullable(),
    startedAt: timestamp,
    completedAt: timestamp.nullable(),
    outcome: z.enum(['running', 'succeeded', 'failed', 'skipped']),
    inputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    outputTokens: z.number().int(),
    events: z.array(ProtocolEventView),
  })
  .meta({ id: 'ProtocolPass' });

export const ProtocolView = z.array(ProtocolPassView).meta({ id: 'Protocol' });

export const FindingListQuery = z.object({
  repositoryId: z.string().max(300).optional(),
  pullRequestId: z.coerce.number().int().min(1).max(MAX_STORED_INTEGER, storedIntegerMessage).optional(),
  state: z.enum(FINDING_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const StoredFindingView = z
  .object({
    id: z.string(),
    fingerprint: z.string(),
    state: z.enum(FINDING_STATES),
    repositoryId: z.string(),
    pullRequestId: z.number().int(),
    filePath: z.string(),
    startLine: z.number().int().nullable(),
    endLine: z.number().int().nullable(),
    side: z.enum(['new', 'old']),
    severity: z.string(),
    category: z.string(),
    title: z.string(),
    message: z.string(),
    firstSeenRevision: z.string(),
    lastSeenRevision: z.string(),
    resolvedAtRevision: z.string().nullable(),
    reopenCount: z.number().int(),
    providerThreadId: z.string().nullable(),
    citations: z
      .array(KnowledgeCitationView)
      .meta({ description: 'The code-knowledge passages its last sighting relied on; empty when none.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'StoredFinding', description: 'A finding posted on a pull request, followed across pushes.' });

export const StoredFindingList = z
  .object({ items: z.array(StoredFindingView), nextCursor: z.string().nullable() })
  .meta({ id: 'StoredFindingList' });

export const PullRequestFindingsQuery = z.object({
  repositoryId: z.string().trim().min(1).max(300),
  pullRequestId: z.coerce.number().int().min(1).max(MAX_STORED_INTEGER, storedIntegerMessage),
});

export const PullRequestFindingsView = z
  .object({
    repositoryId: z.string(),
    pullRequestId: z.number().int(),
    counts: z.object(
      Object.fromEntries(FINDING_STATES.map((s) => [s, z.number().int()])) as Record<
        (typeof FINDING_STATES)[number],
        z.ZodNumber
      >,
    ),
    lastReview: z
      .object({ jobId: z.string(), headSha: z.string().nullable(), completedAt: timestamp.nullable() })
      .nullable(),
    open: z.array(StoredFindingView).meta({ description: 'The open and reopened findings, at most 200.' }),
  })
  .meta({
    id: 'PullRequestFindings',
    description: 'Where a pull request stands: findings by state and the last review.',
  });

export type JobAcceptedBody = z.infer<typeof JobAccepted>;
export type JobMovedBody = z.infer<typeof JobMoved>;
export type BlockViewBody = z.infer<typeof BlockView>;
export type BlockListBody = z.infer<typeof BlockList>;
export type UnblockedBody = z.infer<typeof Unblocked>;
export type DismissalViewBody = z.infer<typeof DismissalView>;
export type DismissalListBody = z.infer<typeof DismissalList>;
export type MemoryViewBody = z.infer<typeof MemoryView>;
export type MemoryListBody = z.infer<typeof MemoryList>;
export type StoredFindingListBody = z.infer<typeof StoredFindingList>;
export type PullRequestFindingsViewBody = z.infer<typeof PullRequestFindingsView>;
