import { z } from 'zod';
import {
  AI_PURPOSES,
  BUILT_IN_AI_PROVIDER_KINDS,
  BUILT_IN_PROTOCOL_MODES,
  OPERATION_KINDS,
  REASONING_EFFORTS,
} from '../ai-model/index.js';
import { registeredId } from '../kernel/index.js';
import {
  AI_FAILURE_CATEGORIES,
  AUTH_MODES,
  DISCOVERY_MODES,
  MODEL_SOURCES,
  VERIFICATION_STATUSES,
} from './ai-records.js';

/** Ids adapters register, as request and response fields: the built-ins listed, others accepted. */
export const aiProviderKind = registeredId(BUILT_IN_AI_PROVIDER_KINDS, 'AI provider kind').meta({
  description: 'A built-in kind (kindCloudA, kindDirect, …) or one a plugin registers.',
});

export const protocolMode = registeredId(BUILT_IN_PROTOCOL_MODES, 'protocol mode').meta({
  description: '`auto`, a built-in wire protocol, or one a registered AI provider kind declares.',
});

const timestamp = z.string().meta({ description: 'ISO-8601 UTC timestamp.', format: 'date-time' });
const id = z.string().min(1).max(100);
const remoteModelId = z.string().trim().min(1, 'must not be empty').max(200);
const price = z.number().min(0).max(1_000_000);

/** Required and non-empty, with one message for both (spec §7: absent or empty is a 400). */
const requiredList = <T extends z.ZodType>(item: T, what: string, max: number) =>
  z
    .array(item, { error: (issue) => (issue.input === undefined ? `Required: at least one ${what}.` : undefined) })
    .min(1, `Must not be empty: at least one ${what}.`)
    .max(max);

const headerName = z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/, 'must be an HTTP header name');
const noLineBreaks = z
  .string()
  .max(2000)
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks');
const MAX_MAP_ENTRIES = 50;
const tooManyEntries = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.keys(value).length > MAX_MAP_ENTRIES;
/**
 * Counted before the entries are parsed: a 1 MB body holds some 75,000 entries, and checking each
 * only to refuse the map costs most of a second.
 */
const stringMap = (key: z.ZodString) =>
  z
    .preprocess(
      (value, ctx) => {
        if (tooManyEntries(value))
          ctx.addIssue({ code: 'custom', message: `at most ${MAX_MAP_ENTRIES} entries`, continue: false });
        return value;
      },
      z.record(key, noLineBreaks),
    )
    .meta({ maxProperties: MAX_MAP_ENTRIES });

export const AiConnectionAuthInput = z
  .object({
    mode: z.enum(AUTH_MODES),
    apiKey: z.string().max(4096).nullish().meta({
      description:
        'Required for `apiKey` on create. Write-only: stored sealed and never returned. On PATCH, leave it out to keep the stored key. An empty key is allowed only for kindCompatible (no Authorization header).',
    }),
  })
  .meta({ id: 'AiConnectionAuthInput' });

const baseUrl = z.string().trim().max(1000).meta({
  description:
    'Absolute http(s) URL of the provider API. May be left empty for kindDirect, kindAssistant, kindCloudB and kindCloudC (their public endpoint).',
});

/** How a model is described on input, on a connection or in a tenant's catalog alike. */
const modelTraitInputs = {
  tokenizerName: z.string().trim().min(1).max(100).nullish(),
  maxInputTokens: z.number().int().gt(0, 'must be greater than 0').max(100_000_000).nullish(),
  embeddingDimensions: z.number().int().min(64, 'must be at least 64').max(4096, 'must be at most 4096').nullish(),
  supportsStructuredOutput: z.boolean().nullish(),
  supportsToolUse: z.boolean().nullish(),
  maxContextTokens: z.number().int().gt(0, 'must be greater than 0').max(100_000_000).nullish(),
  inputCostPer1MUsd: price.nullish(),
  outputCostPer1MUsd: price.nullish(),
  cachedInputCostPer1MUsd: price.nullish(),
};

export const ConfiguredModelInput = z
  .object({
    id: id.nullish().meta({ description: 'On PATCH: the id of the model to keep. Ignored on create.' }),
    remoteModelId,
    displayName: z.string().trim().min(1).max(200).nullish(),
    operationKinds: z
      .array(z.enum(OPERATION_KINDS))
      .min(1)
      .max(2)
      .nullish()
      .meta({ description: 'Inferred when omitted: embedding for embedding ids or models with embedding fields.' }),
    supportedProtocolModes: z.array(protocolMode).min(1).max(7).nullish(),
    ...modelTraitInputs,
    source: z.enum(MODEL_SOURCES).nullish(),
    lastSeenAt: z.iso.datetime({ offset: true }).nullish(),
  })
  .meta({ id: 'ConfiguredModelInput' });

export const PurposeBindingInput = z
  .object({
    purpose: z.enum(AI_PURPOSES),
    remoteModelId: remoteModelId.nullish(),
    configuredModelId: id.nullish(),
    protocolMode: protocolMode.nullish().meta({ description: 'Default `auto`.' }),
    isEnabled: z.boolean().nullish().meta({ description: 'Default true.' }),
  })
  .meta({ id: 'PurposeBindingInput' });

const connectionFields = {
  displayName: z.string().trim().min(1, 'displayName is required').max(200, 'must be at most 200 characters'),
  providerKind: aiProviderKind,
  baseUrl,
  auth: AiConnectionAuthInput,
  discoveryMode: z.enum(DISCOVERY_MODES),
  defaultHeaders: stringMap(headerName),
  defaultQueryParams: stringMap(z.string().min(1).max(100)),
};

export const CreateAiConnectionInput = z
  .object({
    ...connectionFields,
    baseUrl: baseUrl.optional(),
    discoveryMode: connectionFields.discoveryMode
      .optional()
      .meta({ description: 'Default providerCatalog where the kind can list models, else manualOnly.' }),
    defaultHeaders: connectionFields.defaultHeaders.optional(),
    defaultQueryParams: connectionFields.defaultQueryParams.optional(),
    configuredModels: requiredList(ConfiguredModelInput, 'configured model', 200),
    purposeBindings: requiredList(PurposeBindingInput, 'purpose binding', AI_PURPOSES.length),
  })
  .meta({ id: 'CreateAiConnectionInput' });

export const PatchAiConnectionInput = z
  .object({
    displayName: connectionFields.displayName.optional(),
    providerKind: connectionFields.providerKind.optional(),
    baseUrl: baseUrl.optional(),
    auth: AiConnectionAuthInput.optional(),
    discoveryMode: connectionFields.discoveryMode.optional(),
    defaultHeaders: connectionFields.defaultHeaders.optional(),
    defaultQueryParams: connectionFields.defaultQueryParams.optional(),
    configuredModels: requiredList(ConfiguredModelInput, 'configured model', 200).optional().meta({
      description: 'Replaces the list. Models keep their id when sent with it or with the same remoteModelId.',
    }),
    purposeBindings: requiredList(PurposeBindingInput, 'purpose binding', AI_PURPOSES.length)
      .optional()
      .meta({ description: 'Replaces the list.' }),
  })
  .meta({ id: 'PatchAiConnectionInput' });

export const AiProbeInput = z
  .object({
    providerKind: connectionFields.providerKind,
    baseUrl: baseUrl.optional(),
    auth: AiConnectionAuthInput,
    defaultHeaders: connectionFields.defaultHeaders.optional(),
    defaultQueryParams: connectionFields.defaultQueryParams.optional(),
  })
  .meta({ id: 'AiProbeInput' });

/** What a configured model and a discovered one share, so discovery output can be sent back as is. */
const modelDescriptionFields = {
  remoteModelId: z.string(),
  displayName: z.string(),
  operationKinds: z.array(z.enum(OPERATION_KINDS)),
  supportedProtocolModes: z.array(protocolMode),
  tokenizerName: z.string().nullable(),
  maxInputTokens: z.number().int().nullable(),
  embeddingDimensions: z.number().int().nullable(),
  supportsStructuredOutput: z.boolean(),
  supportsToolUse: z.boolean(),
  maxContextTokens: z.number().int().nullable(),
  inputCostPer1MUsd: z.number().nullable(),
  outputCostPer1MUsd: z.number().nullable(),
  cachedInputCostPer1MUsd: z.number().nullable(),
};

export const ConfiguredModelView = z
  .object({
    id: z.string(),
    ...modelDescriptionFields,
    source: z.enum(MODEL_SOURCES),
    lastSeenAt: timestamp.nullable(),
  })
  .meta({ id: 'ConfiguredModel' });

export const PurposeBindingView = z
  .object({
    purpose: z.enum(AI_PURPOSES),
    configuredModelId: z.string(),
    remoteModelId: z.string(),
    protocolMode: protocolMode,
    isEnabled: z.boolean(),
  })
  .meta({ id: 'PurposeBinding' });

export const AiVerificationView = z
  .object({
    status: z.enum(VERIFICATION_STATUSES),
    failureCategory: z.enum(AI_FAILURE_CATEGORIES).optional().meta({ description: 'Only when status is failed.' }),
    summary: z.string(),
    checkedAt: timestamp.nullable(),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'AiVerification' });

export const AiProbeResultView = z
  .object({
    status: z.enum(['succeeded', 'failed']),
    failureCategory: z.enum(AI_FAILURE_CATEGORIES).optional(),
    summary: z.string(),
    checkedAt: timestamp,
    warnings: z.array(z.string()),
  })
  .meta({ id: 'AiProbeResult' });

export const AiConnectionView = z
  .object({
    id: z.string(),
    clientId: z.string().nullable().meta({ description: 'The owning client; null for a tenant-owned connection.' }),
    ownerTenantId: z
      .string()
      .nullable()
      .meta({ description: 'The owning tenant of a tenant-owned connection; null for a client’s.' }),
    displayName: z.string(),
    providerKind: aiProviderKind,
    baseUrl: z.string(),
    auth: z
      .object({ mode: z.enum(AUTH_MODES), hasApiKey: z.boolean() })
      .meta({ description: 'The key itself is never returned.' }),
    discoveryMode: z.enum(DISCOVERY_MODES),
    defaultHeaders: z.record(z.string(), z.string()),
    defaultQueryParams: z.record(z.string(), z.string()),
    configuredModels: z.array(ConfiguredModelView),
    purposeBindings: z.array(PurposeBindingView),
    isActive: z.boolean(),
    verification: AiVerificationView,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'AiConnection' });

export const AiConnectionList = z
  .object({ items: z.array(AiConnectionView), nextCursor: z.string().nullable() })
  .meta({ id: 'AiConnectionList' });

export const PermittedProvidersView = z
  .object({
    providers: z.array(
      z.object({
        providerKind: aiProviderKind,
        isPermitted: z.boolean(),
        protocolModes: z.array(protocolMode),
      }),
    ),
    isRestricted: z.boolean(),
  })
  .meta({ id: 'PermittedAiProviders' });

export const DiscoveredModelView = z
  .object({
    ...modelDescriptionFields,
    source: z.literal('discovered'),
    lastSeenAt: timestamp,
  })
  .meta({
    id: 'DiscoveredModel',
    description: 'Shaped as a configured model, ready to send back in configuredModels.',
  });

export const AiDiscoveryResultView = z
  .object({
    discoveryStatus: z.enum(['succeeded', 'failed']),
    manualEntryAllowed: z.boolean(),
    warnings: z.array(z.string()),
    models: z.array(DiscoveredModelView),
  })
  .meta({ id: 'AiDiscoveryResult' });

const logicalName = z
  .string()
  .trim()
  .min(1, 'name is required')
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
    'may contain letters, digits and . _ : - only, starting with a letter or digit',
  );

const logicalFields = {
  capability: z.enum(OPERATION_KINDS),
  connectionId: id,
  configuredModelId: id,
  reasoningEffort: z.enum(REASONING_EFFORTS).optional().meta({ description: 'Default `none` (send nothing).' }),
  protocolMode: protocolMode.optional().meta({ description: 'Default `auto`.' }),
};

export const LogicalModelInput = z.object({ name: logicalName, ...logicalFields }).meta({ id: 'LogicalModelInput' });

export const PutLogicalModelInput = z
  .object({
    name: logicalName.optional().meta({ description: 'When sent, must equal the name in the path.' }),
    ...logicalFields,
  })
  .meta({ id: 'PutLogicalModelInput' });

export const LogicalModelView = z
  .object({
    name: z.string(),
    capability: z.enum(OPERATION_KINDS),
    connectionId: z.string(),
    configuredModelId: z.string(),
    reasoningEffort: z.enum(REASONING_EFFORTS),
    protocolMode: protocolMode,
    scope: z.enum(['client', 'tenant']).meta({ description: 'A client override or a tenant-catalog entry.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'LogicalModel' });

export const PurposeMappingView = z
  .object({
    purpose: z.enum(AI_PURPOSES),
    logicalModelName: z.string(),
  })
  .meta({ id: 'PurposeMapping' });

export const ClientLogicalModelsView = z
  .object({
    items: z.array(
      LogicalModelView.extend({
        shadowsTenantEntry: z.boolean().meta({ description: 'A client override hiding a tenant entry of that name.' }),
      }),
    ),
    purposes: z.array(
      z.object({
        purpose: z.enum(AI_PURPOSES),
        requiredCapability: z.enum(OPERATION_KINDS),
        logicalModelName: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'ClientLogicalModels', description: 'Effective names (overrides, then unshadowed tenant entries).' });

export const TenantLogicalModelList = z
  .object({ items: z.array(LogicalModelView) })
  .meta({ id: 'TenantLogicalModelList' });

export const PutPurposeInput = z.object({ logicalModelName: logicalName }).meta({ id: 'PutPurposeInput' });

export const PurposeParam = z.enum(AI_PURPOSES);

const catalogModelFields = {
  providerKind: aiProviderKind,
  remoteModelId,
  displayName: z.string().trim().min(1).max(200).nullish(),
  operationKinds: z.array(z.enum(OPERATION_KINDS)).min(1).max(2).nullish(),
  ...modelTraitInputs,
};

export const CatalogModelInput = z.object(catalogModelFields).meta({ id: 'CatalogModelInput' });

export const CatalogModelView = z
  .object({
    id: z.string().meta({ description: '`builtin:<kind>:<model>` for built-in entries.' }),
    providerKind: aiProviderKind,
    remoteModelId: z.string(),
    displayName: z.string(),
    operationKinds: z.array(z.enum(OPERATION_KINDS)),
    tokenizerName: z.string().nullable(),
    maxInputTokens: z.number().int().nullable(),
    embeddingDimensions: z.number().int().nullable(),
    supportsStructuredOutput: z.boolean(),
    supportsToolUse: z.boolean(),
    maxContextTokens: z.number().int().nullable(),
    inputCostPer1MUsd: z.number().nullable(),
    outputCostPer1MUsd: z.number().nullable(),
    cachedInputCostPer1MUsd: z.number().nullable(),
    isBuiltIn: z.boolean(),
    priceOverridden: z.boolean(),
  })
  .meta({ id: 'CatalogModel' });

export const CatalogModelList = z.object({ items: z.array(CatalogModelView) }).meta({ id: 'CatalogModelList' });

export const CatalogModelQuery = z.object({
  providerKind: aiProviderKind.optional().meta({ description: 'Only this kind.' }),
});

export const AttachCatalogModelInput = z
  .object({
    catalogModelId: z.string().trim().min(1).max(300).meta({
      description:
        'A catalog model of the connection’s provider kind (`builtin:<kind>:<model>` or a tenant model’s id).',
    }),
  })
  .meta({ id: 'AttachCatalogModelInput' });

export const CatalogProviderList = z
  .object({
    items: z.array(
      z.object({
        providerKind: aiProviderKind,
        protocolModes: z.array(protocolMode),
        supportsDiscovery: z.boolean(),
        catalogModelCount: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'CatalogProviderList' });

export const PriceOverrideInput = z
  .object({
    providerKind: aiProviderKind,
    remoteModelId,
    inputCostPer1MUsd: price.nullish(),
    outputCostPer1MUsd: price.nullish(),
    cachedInputCostPer1MUsd: price.nullish(),
  })
  .meta({ id: 'PriceOverrideInput' });

export const PriceOverrideView = z
  .object({
    id: z.string(),
    providerKind: aiProviderKind,
    remoteModelId: z.string(),
    inputCostPer1MUsd: z.number().nullable(),
    outputCostPer1MUsd: z.number().nullable(),
    cachedInputCostPer1MUsd: z.number().nullable(),
    updatedAt: timestamp,
  })
  .meta({ id: 'PriceOverride' });

export const PriceOverrideList = z.object({ items: z.array(PriceOverrideView) }).meta({ id: 'PriceOverrideList' });

export type ConfiguredModelInputBody = z.infer<typeof ConfiguredModelInput>;
export type PurposeBindingInputBody = z.infer<typeof PurposeBindingInput>;
export type AiConnectionViewBody = z.infer<typeof AiConnectionView>;
export type AiVerificationViewBody = z.infer<typeof AiVerificationView>;

export type PermittedProvidersViewBody = z.infer<typeof PermittedProvidersView>;
export type AiProbeResultViewBody = z.infer<typeof AiProbeResultView>;
export type AiDiscoveryResultViewBody = z.infer<typeof AiDiscoveryResultView>;
export type AiConnectionListBody = z.infer<typeof AiConnectionList>;
export type ClientLogicalModelsViewBody = z.infer<typeof ClientLogicalModelsView>;
export type LogicalModelViewBody = z.infer<typeof LogicalModelView>;
export type PurposeMappingViewBody = z.infer<typeof PurposeMappingView>;
export type TenantLogicalModelListBody = z.infer<typeof TenantLogicalModelList>;
export type CatalogModelListBody = z.infer<typeof CatalogModelList>;
export type CatalogModelViewBody = z.infer<typeof CatalogModelView>;
export type CatalogProviderListBody = z.infer<typeof CatalogProviderList>;
export type PriceOverrideListBody = z.infer<typeof PriceOverrideList>;
export type PriceOverrideViewBody = z.infer<typeof PriceOverrideView>;

/** An exact host (`api.example.com`) or `.suffix` for any host below it (`.example.com`). */
const policyHost = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a host name or .suffix');

const distinct = <T extends z.ZodType<string>>(item: T) =>
  z
    .array(item)
    .max(100)
    .transform((values) => [...new Set(values)]);

export const TenantAiPolicyInput = z
  .object({
    permittedProviderKinds: distinct(aiProviderKind).nullable().meta({
      description: 'The provider kinds the tenant’s clients may use; null: every kind.',
    }),
    permittedHosts: distinct(policyHost).nullable().meta({
      description: 'Hosts the tenant’s AI connections may call: exact, or `.suffix` for any host below it; null: any.',
    }),
  })
  .strict()
  .meta({ id: 'TenantAiPolicyInput' });

export const TenantAiPolicyView = z
  .object({
    tenantId: z.string(),
    permittedProviderKinds: z.array(z.string()).nullable(),
    permittedHosts: z.array(z.string()).nullable(),
    isRestricted: z.boolean(),
    updatedAt: timestamp.nullable().meta({ description: 'Null while the tenant has never had a policy.' }),
  })
  .meta({ id: 'TenantAiPolicy' });
export type TenantAiPolicyViewBody = z.infer<typeof TenantAiPolicyView>;
