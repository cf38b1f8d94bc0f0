import { z } from 'zod';
import { MAX_STORED_INTEGER, oneOf, required, storedIntegerMessage, text, timestamp } from '../kernel/index.js';
import { providerFamily } from '../scm/index.js';
import { WEBHOOK_EVENT_KINDS } from '../scm-provider/index.js';
import { CRAWL_OUTCOMES, DELIVERY_OUTCOMES, KNOWLEDGE_SCOPE_MODES } from './trigger-records.js';

const optionalText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

const branchPattern = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be blank')
  .max(500, 'must be at most 500 characters')
  .refine((p) => !p.slice(0, -1).includes('*'), 'may hold a wildcard `*` only at its end');

export const RepoFilterInput = z
  .object({
    repositoryName: optionalText(300),
    displayName: optionalText(300),
    canonicalSourceRef: z.object(
      {
        provider: providerFamily.meta({ description: 'Must be the configuration’s provider family.' }),
        value: text(300).meta({
          description:
            'Repository id: ADO repository GUID, GitHub numeric id, GitLab project id, Bitbucket repository UUID.',
        }),
      },
      { error: required('an object') },
    ),
    targetBranchPatterns: z
      .array(branchPattern, { error: 'must be an array of strings' })
      .max(50, 'must have at most 50 patterns')
      .optional()
      .transform((v) => v ?? [])
      .meta({
        description:
          'Target branches covered: exact names, or a prefix ending in `*` (`release/*`). Empty or absent: every branch.',
      }),
  })
  .meta({ id: 'RepoFilterInput' });

const repoFilters = z
  .array(RepoFilterInput, { error: 'must be an array' })
  .max(500, 'must have at most 500 filters')
  .meta({ description: 'Repositories covered. Empty: the whole scope and project.' });

const reviewTemperature = z
  .number({ error: 'must be a number' })
  .min(0, 'must be between 0.0 and 2.0')
  .max(2, 'must be between 0.0 and 2.0')
  .nullish()
  .meta({ description: '0.0–2.0; snapshotted onto every job the configuration queues. Null: the model default.' });

const knowledgeSourceScopeMode = z
  .enum(KNOWLEDGE_SCOPE_MODES, { error: oneOf(KNOWLEDGE_SCOPE_MODES) })
  .meta({ description: 'Which code-knowledge sources reviews may use. `selectedSources` needs knowledgeSourceIds.' });

const knowledgeSourceIds = z
  .array(text(100), { error: 'must be an array of strings' })
  .max(100, 'must have at most 100 ids')
  .meta({ description: 'With selectedSources: ids of the client’s knowledge sources (at least one).' });

const scopeFields = {
  organizationScopeId: text(100).meta({ description: 'Id of one of the client’s provider scopes.' }),
  providerProjectKey: text(300).meta({
    description: 'ADO project name, GitHub owner login, GitLab group full path or Bitbucket workspace slug.',
  }),
};

const enabledEvents = z
  .array(z.enum(WEBHOOK_EVENT_KINDS, { error: oneOf(WEBHOOK_EVENT_KINDS) }), { error: 'must be an array' })
  .min(1, 'must name at least one event')
  // Repeats collapse, so a list longer than this is never needed.
  .max(20, 'must name at most 20 events')
  .transform((events) => [...new Set(events)])
  .meta({ description: 'Which events start reviews; the others are acknowledged `ignored`.' });

export const CreateWebhookConfigurationInput = z
  .object({
    clientId: text(100),
    provider: providerFamily.meta({ description: 'Must be the family of the scope’s connection.' }),
    ...scopeFields,
    reviewTemperature,
    enabledEvents: enabledEvents
      .optional()
      .meta({ description: 'Default: pullRequestCreated and pullRequestUpdated.' }),
    repoFilters: repoFilters.optional(),
    knowledgeSourceScopeMode: knowledgeSourceScopeMode.optional().meta({ description: 'Default allClientSources.' }),
    knowledgeSourceIds: knowledgeSourceIds.optional(),
    isActive: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default true.' }),
  })
  .meta({ id: 'CreateWebhookConfigurationInput' });

/** What a PATCH may change on either kind of configuration. */
const commonPatchFields = {
  isActive: z.boolean({ error: 'must be a boolean' }).optional(),
  reviewTemperature,
  repoFilters: repoFilters.optional().meta({ description: 'Replaces the list; an empty array covers the scope.' }),
  knowledgeSourceScopeMode: knowledgeSourceScopeMode.optional(),
  knowledgeSourceIds: knowledgeSourceIds.optional(),
};
export type CommonConfigurationPatchInput = z.infer<z.ZodObject<typeof commonPatchFields>>;

const crawlIntervalSeconds = z
  .int({ error: 'must be a whole number' })
  .min(10, 'must be at least 10')
  .max(86_400, 'must be at most 86400')
  .optional();

export const PatchWebhookConfigurationInput = z
  .object({ ...commonPatchFields, enabledEvents: enabledEvents.optional() })
  .meta({ id: 'PatchWebhookConfigurationInput' });

export const CreateCrawlConfigurationInput = z
  .object({
    clientId: text(100),
    ...scopeFields,
    crawlIntervalSeconds: crawlIntervalSeconds.meta({
      description: 'Seconds between crawls, at least 10. Default 60.',
    }),
    reviewTemperature,
    repoFilters: repoFilters.optional(),
    knowledgeSourceScopeMode: knowledgeSourceScopeMode.optional().meta({ description: 'Default allClientSources.' }),
    knowledgeSourceIds: knowledgeSourceIds.optional(),
    isActive: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default true.' }),
  })
  .meta({ id: 'CreateCrawlConfigurationInput' });

export const PatchCrawlConfigurationInput = z
  .object({ ...commonPatchFields, crawlIntervalSeconds })
  .meta({ id: 'PatchCrawlConfigurationInput' });

export const TriggerListQuery = z.object({
  clientId: z.string().max(100).optional().meta({ description: 'Only this client’s configurations.' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

export const DeliveriesQuery = z.object({
  take: z
    .string()
    .max(20, 'must be a number')
    .optional()
    .transform((v) => {
      const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
      if (!Number.isFinite(n)) return 50;
      return Math.min(200, Math.max(1, Math.trunc(n)));
    })
    .meta({ description: 'How many, newest first: default 50, clamped to 1–200.' }),
});

const RepoFilterView = z
  .object({
    repositoryName: z.string().nullable(),
    displayName: z.string().nullable(),
    canonicalSourceRef: z.object({ provider: providerFamily, value: z.string() }),
    targetBranchPatterns: z.array(z.string()),
  })
  .meta({ id: 'RepoFilter' });

const configurationViewFields = {
  id: z.string(),
  clientId: z.string(),
  provider: providerFamily,
  organizationScopeId: z.string(),
  providerScopePath: z.string().meta({ description: 'The scope’s path; by-coordinates requests match it exactly.' }),
  providerProjectKey: z.string(),
  reviewTemperature: z.number().nullable(),
  repoFilters: z.array(RepoFilterView),
  knowledgeSourceScopeMode: z.enum(KNOWLEDGE_SCOPE_MODES),
  knowledgeSourceIds: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const WebhookConfigurationView = z
  .object({
    ...configurationViewFields,
    enabledEvents: z.array(z.enum(WEBHOOK_EVENT_KINDS)),
    listenerUrl: z.string().meta({ description: 'Where the provider posts deliveries.' }),
    listenerUrlSource: z.enum(['publicBaseUrl', 'listenAddress']).meta({
      description:
        '`publicBaseUrl`: built from MARGIN_PUBLIC_BASE_URL. `listenAddress`: that is not set, so it uses the address the host listens on (never the request’s Host header); see `warnings`.',
    }),
    warnings: z.array(z.string()).meta({ description: 'Why listenerUrl may not be reachable by providers.' }),
  })
  .meta({ id: 'WebhookConfiguration' });

export const CreatedWebhookConfigurationView = WebhookConfigurationView.extend({
  generatedSecret: z.string().meta({
    description:
      'The secret the provider authenticates with (64 hex characters). Shown only in this response; delete and recreate the configuration to get a new one.',
  }),
}).meta({ id: 'CreatedWebhookConfiguration' });

export const WebhookConfigurationList = z
  .object({ items: z.array(WebhookConfigurationView), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookConfigurationList' });

export const WebhookDeliveryView = z
  .object({
    id: z.string(),
    receivedAt: timestamp,
    eventType: z.string().nullable().meta({ description: 'The provider’s own event name.' }),
    outcome: z.enum(DELIVERY_OUTCOMES),
    httpStatus: z.number().int().meta({ description: 'The status the receiver answered with.' }),
    repositoryId: z.string().nullable(),
    pullRequestId: z.number().int().nullable(),
    sourceBranch: z.string().nullable(),
    targetBranch: z.string().nullable(),
    actions: z.array(z.string()).meta({ description: 'What was done: `jobQueued <id>`, `skipped: <why>`, …' }),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryList = z
  .object({ items: z.array(WebhookDeliveryView) })
  .meta({ id: 'WebhookDeliveryList' });

export const CrawlConfigurationView = z
  .object({
    ...configurationViewFields,
    crawlIntervalSeconds: z.number().int(),
    nextCrawlAt: timestamp,
    lastCrawledAt: timestamp.nullable(),
    lastCrawlOutcome: z.enum(CRAWL_OUTCOMES).nullable(),
    lastCrawlError: z.string().nullable(),
    lastCrawlCounts: z
      .object({
        pullRequestsSeen: z.number().int(),
        inScope: z.number().int(),
        queued: z.number().int(),
        skipped: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: 'CrawlConfiguration' });

export const CrawlConfigurationList = z
  .object({ items: z.array(CrawlConfigurationView), nextCursor: z.string().nullable() })
  .meta({ id: 'CrawlConfigurationList' });

export const WebhookAcknowledgement = z
  .object({ status: z.enum(['accepted', 'ignored']) })
  .meta({ id: 'WebhookAcknowledgement' });

export const SubmitByCoordinatesInput = z
  .object({
    providerScopePath: text(512).meta({ description: 'Exactly the providerScopePath of a configuration.' }),
    providerProjectKey: text(300),
    repositoryId: text(300),
    pullRequestId: z
      .int({ error: required('an integer') })
      .min(1, 'must be at least 1')
      .max(MAX_STORED_INTEGER, storedIntegerMessage),
  })
  .meta({ id: 'SubmitByCoordinatesInput' });

export const BY_COORDINATES_OUTCOMES = [
  'submitted',
  'duplicateActiveJob',
  'notSubmittable',
  'notAuthorized',
  'pullRequestNotFound',
  'submissionFailed',
  'revisionUnresolvable',
] as const;
export type ByCoordinatesOutcome = (typeof BY_COORDINATES_OUTCOMES)[number];

export const ByCoordinatesResult = z
  .object({
    outcome: z.enum(BY_COORDINATES_OUTCOMES),
    jobId: z.string().optional().meta({ description: 'submitted: the new job; duplicateActiveJob: the active one.' }),
    reason: z
      .string()
      .optional()
      .meta({ description: 'notSubmittable: closed, merged, blocked or scopeUnresolvable.' }),
    error: z.string().optional().meta({ description: 'What went wrong, for people (every outcome but submitted).' }),
    code: z.string().optional(),
  })
  .meta({ id: 'ByCoordinatesResult' });

export type WebhookConfigurationViewBody = z.infer<typeof WebhookConfigurationView>;
export type CreatedWebhookConfigurationViewBody = z.infer<typeof CreatedWebhookConfigurationView>;
export type WebhookConfigurationListBody = z.infer<typeof WebhookConfigurationList>;
export type WebhookDeliveryListBody = z.infer<typeof WebhookDeliveryList>;
export type CrawlConfigurationViewBody = z.infer<typeof CrawlConfigurationView>;
export type CrawlConfigurationListBody = z.infer<typeof CrawlConfigurationList>;
