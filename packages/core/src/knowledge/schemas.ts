import { z } from 'zod';
import { oneOf, required, text, timestamp } from '../kernel/index.js';
import { providerFamily } from '../scm/index.js';
import { INDEX_STATUSES } from './index-records.js';
import { KNOWLEDGE_SOURCE_KINDS, REFRESH_TRIGGER_MODES, SYMBOL_MODES } from './knowledge-records.js';

const branchName = text(300).refine((b) => !b.includes('*'), 'must be a branch name, not a pattern');

export const TrackedBranchInput = z.object({
  branchName,
  refreshTriggerMode: z
    .enum(REFRESH_TRIGGER_MODES, { error: oneOf(REFRESH_TRIGGER_MODES) })
    .optional()
    .meta({ description: 'manual (default) or branchUpdate.' }),
  miniIndexEnabled: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default false.' }),
});

/** A tracked branch named twice is a mistake worth naming, at the second mention. */
function branchesListedOnce(
  value: { trackedBranches?: Array<{ branchName: string }> | undefined },
  ctx: z.RefinementCtx,
) {
  const seen = new Set<string>();
  (value.trackedBranches ?? []).forEach((b, i) => {
    if (seen.has(b.branchName)) {
      ctx.addIssue({ code: 'custom', path: ['trackedBranches', i, 'branchName'], message: 'is listed twice' });
    }
    seen.add(b.branchName);
  });
}

export const CreateKnowledgeSourceInput = z
  .object({
    displayName: text(200),
    sourceKind: z
      .enum(KNOWLEDGE_SOURCE_KINDS, { error: oneOf(KNOWLEDGE_SOURCE_KINDS) })
      .meta({ description: 'repository, or adoWiki (suiteDevOps scopes only).' }),
    organizationScopeId: text(100).meta({ description: 'Id of one of the client’s provider scopes.' }),
    providerProjectKey: text(300),
    canonicalSourceRef: z.object(
      {
        provider: providerFamily.meta({ description: 'Must be the family of the scope’s connection.' }),
        value: text(300).meta({ description: 'The repository id (for adoWiki: the wiki’s repository id).' }),
      },
      { error: required('an object') },
    ),
    sourceDisplayName: text(300).optional().meta({ description: 'Default: displayName.' }),
    defaultBranch: branchName,
    rootPath: z
      .string({ error: 'must be a string' })
      .trim()
      .max(1000, 'must be at most 1000 characters')
      .optional()
      .meta({ description: 'Folder the source is read from. Default `/`.' }),
    symbolMode: z
      .enum(SYMBOL_MODES, { error: oneOf(SYMBOL_MODES) })
      .optional()
      .meta({ description: 'auto (default) or textOnly.' }),
    trackedBranches: z
      .array(TrackedBranchInput, { error: 'must be an array' })
      .max(50, 'must have at most 50 branches')
      .optional()
      .meta({ description: 'Branches kept indexed. Default: the default branch, refreshed manually.' }),
  })
  .superRefine(branchesListedOnce)
  .meta({ id: 'CreateKnowledgeSourceInput' });

export const KnowledgeSourceView = z
  .object({
    id: z.string(),
    clientId: z.string(),
    displayName: z.string(),
    sourceKind: z.enum(KNOWLEDGE_SOURCE_KINDS),
    organizationScopeId: z.string(),
    providerProjectKey: z.string(),
    canonicalSourceRef: z.object({ provider: providerFamily, value: z.string() }),
    sourceDisplayName: z.string(),
    defaultBranch: z.string(),
    rootPath: z.string(),
    symbolMode: z.enum(SYMBOL_MODES),
    trackedBranches: z.array(
      z.object({
        branchName: z.string(),
        refreshTriggerMode: z.enum(REFRESH_TRIGGER_MODES),
        miniIndexEnabled: z.boolean(),
      }),
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'KnowledgeSource' });

export const KnowledgeSourceList = z
  .object({ items: z.array(KnowledgeSourceView), nextCursor: z.string().nullable() })
  .meta({ id: 'KnowledgeSourceList' });

export type KnowledgeSourceViewBody = z.infer<typeof KnowledgeSourceView>;
export type KnowledgeSourceListBody = z.infer<typeof KnowledgeSourceList>;

export const PatchKnowledgeSourceInput = z
  .object({
    displayName: text(200).optional(),
    rootPath: z
      .string({ error: 'must be a string' })
      .trim()
      .max(1000, 'must be at most 1000 characters')
      .optional()
      .meta({ description: 'Folder the source is read from; `/` or empty: the whole repository.' }),
    symbolMode: z.enum(SYMBOL_MODES, { error: oneOf(SYMBOL_MODES) }).optional(),
    trackedBranches: z
      .array(TrackedBranchInput, { error: 'must be an array' })
      .min(1, 'must name at least one branch')
      .max(50, 'must have at most 50 branches')
      .optional()
      .meta({ description: 'Replaces the list; a branch left out loses its index.' }),
  })
  .superRefine(branchesListedOnce)
  .meta({ id: 'PatchKnowledgeSourceInput' });

export const RefreshKnowledgeSourceInput = z
  .object({
    branchName: branchName.optional().meta({ description: 'One tracked branch; default every tracked branch.' }),
  })
  .meta({ id: 'RefreshKnowledgeSourceInput' });

export const KnowledgeRefreshAccepted = z
  .object({
    sourceId: z.string(),
    branches: z.array(z.object({ branchName: z.string(), status: z.literal('queued') })),
  })
  .meta({ id: 'KnowledgeRefreshAccepted' });

export const KnowledgeIndexView = z
  .object({
    branches: z.array(
      z.object({
        branchName: z.string(),
        status: z.enum(INDEX_STATUSES),
        indexedCommit: z.string().nullable(),
        indexedAt: timestamp.nullable(),
        files: z.number().int(),
        chunks: z.number().int(),
        symbols: z.number().int(),
        skippedFiles: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'KnowledgeIndex' });

export const SEARCH_MODES = ['auto', 'lexical', 'semantic'] as const;

/** `a,b` or repeated `?sourceIds=a&sourceIds=b`. */
const idList = z
  .union([z.string(), z.array(z.string())], { error: 'must be a list of ids' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().max(100)).max(50, 'must name at most 50 sources'));

export const KnowledgeSearchInput = z
  .object({
    query: text(1000),
    sourceIds: z
      .array(z.string({ error: 'must be a string' }).max(100), { error: 'must be an array' })
      .max(50, 'must name at most 50 sources')
      .optional()
      .meta({ description: 'Default: every source of the client.' }),
    branchName: branchName.optional().meta({ description: 'Default: each source’s default branch.' }),
    limit: z.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(20).optional(),
    mode: z
      .enum(SEARCH_MODES, { error: oneOf(SEARCH_MODES) })
      .optional()
      .meta({ description: 'auto (default): words, meaning and symbol names together.' }),
  })
  .meta({ id: 'KnowledgeSearchInput' });

export const KnowledgeSearchResults = z
  .object({
    results: z.array(
      z.object({
        sourceId: z.string(),
        branchName: z.string(),
        commit: z.string(),
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        score: z.number(),
        snippet: z.string(),
        matchedBy: z.enum(['lexical', 'semantic', 'symbol']),
      }),
    ),
  })
  .meta({ id: 'KnowledgeSearchResults' });

export const KnowledgeSymbolsQuery = z
  .object({
    name: text(300),
    sourceIds: idList.optional(),
    limit: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).optional(),
  })
  .meta({ id: 'KnowledgeSymbolsQuery' });

export const KnowledgeSymbolList = z
  .object({
    items: z.array(
      z.object({
        sourceId: z.string(),
        branchName: z.string(),
        commit: z.string(),
        path: z.string(),
        line: z.number().int(),
        endLine: z.number().int(),
        kind: z.string(),
        name: z.string(),
        container: z.string().nullable(),
        signature: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'KnowledgeSymbolList' });

export type KnowledgeIndexViewBody = z.infer<typeof KnowledgeIndexView>;
export type KnowledgeRefreshAcceptedBody = z.infer<typeof KnowledgeRefreshAccepted>;
export type KnowledgeSearchResultsBody = z.infer<typeof KnowledgeSearchResults>;
export type KnowledgeSymbolListBody = z.infer<typeof KnowledgeSymbolList>;
