import { z } from 'zod';
import { oneOf, required, text, timestamp } from '../kernel/index.js';
import { providerFamily } from '../scm/index.js';
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
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    (value.trackedBranches ?? []).forEach((b, i) => {
      if (seen.has(b.branchName)) {
        ctx.addIssue({ code: 'custom', path: ['trackedBranches', i, 'branchName'], message: 'is listed twice' });
      }
      seen.add(b.branchName);
    });
  })
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
