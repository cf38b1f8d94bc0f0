import type { AiProviderKind, AiProviderKindV1, ProtocolMode } from '../ai-model/index.js';
import { type AiPurpose, capabilityForPurpose, type OperationKind, readKindSettings } from '../ai-model/index.js';
import { egressRefusalOf } from '../egress/index.js';
import type { Ids, ValidationIssue } from '../kernel/index.js';
import { type ProviderRegistry, unregisteredAiKindIssue } from '../provider-registry/index.js';
import type {
  AiAuthMode,
  ConfiguredModelRecord,
  DiscoveryMode,
  ModelSource,
  PurposeBindingRecord,
} from './ai-records.js';
import type { ConfiguredModelInputBody, PurposeBindingInputBody } from './schemas.js';

/** The modes a profile of this kind may declare: `auto` and each wire protocol the kind speaks. */
export function modesOf(kind: Pick<AiProviderKindV1, 'protocols'>): ProtocolMode[] {
  return ['auto', ...kind.protocols.map((p) => p.mode)];
}

/** `modesOf` for a kind that may not be registered here. */
export const modesOfKind = (kind: AiProviderKindV1 | undefined) => kind && modesOf(kind);

/** What the built-in wire protocols are for, for profiles whose kind is not registered here. */
const BUILT_IN_OPERATIONS: Readonly<Record<string, OperationKind>> = {
  responses: 'chat',
  chatCompletions: 'chat',
  messagesApi: 'chat',
  converseApi: 'chat',
  generateContentApi: 'chat',
  embeddings: 'embedding',
};

/** What a wire protocol is for, as the kind declares it; `undefined` for `auto` or a mode it does not speak. */
export function operationOf(kind: AiProviderKindV1 | undefined, mode: ProtocolMode): OperationKind | undefined {
  return kind ? kind.protocols.find((p) => p.mode === mode)?.operation : BUILT_IN_OPERATIONS[mode];
}

/** Spec: `embedding` when the id contains "embedding" or embedding fields are given, else `chat`. */
export function inferOperationKinds(model: {
  remoteModelId: string;
  tokenizerName?: string | null | undefined;
  embeddingDimensions?: number | null | undefined;
}): OperationKind[] {
  const embedding =
    /embedding/i.test(model.remoteModelId) || model.tokenizerName != null || model.embeddingDimensions != null;
  return embedding ? ['embedding'] : ['chat'];
}

/**
 * Spec: `auto, embeddings` for an embedding-only model, else `auto, responses, chatCompletions`.
 * Those chat modes are OpenAI's; a kind that speaks neither gets its own chat protocols instead
 * (messagesApi, converseApi, generateContentApi, or a plugin's), and a kind without `embeddings`
 * its own embedding protocols. The result keeps only modes the kind speaks, so an inferred list is
 * never refused.
 */
export function inferProtocolModes(
  operationKinds: readonly OperationKind[],
  kind: AiProviderKindV1 | undefined,
): ProtocolMode[] {
  const embeddingOnly = operationKinds.length === 1 && operationKinds[0] === 'embedding';
  const spec: ProtocolMode[] = embeddingOnly ? ['auto', 'embeddings'] : ['auto', 'responses', 'chatCompletions'];
  if (!kind) return spec;
  const modes = modesOf(kind);
  const fitting = spec.filter((m) => modes.includes(m));
  if (fitting.length > 1) return fitting;
  const operation: OperationKind = embeddingOnly ? 'embedding' : 'chat';
  return ['auto', ...kind.protocols.filter((p) => p.operation === operation).map((p) => p.mode)];
}

/**
 * `auto` lets the adapter pick its default wire protocol. A model that declares exactly one wire
 * protocol for the capability (e.g. only chatCompletions behind a gateway) gets that one instead,
 * so `auto` never picks a protocol the model says it does not speak.
 */
export function narrowAutoMode(
  mode: ProtocolMode,
  model: { supportedProtocolModes: readonly ProtocolMode[] },
  capability: OperationKind,
  kind: AiProviderKindV1 | undefined,
): ProtocolMode {
  if (mode !== 'auto') return mode;
  const fitting = model.supportedProtocolModes.filter((m) => operationOf(kind, m) === capability);
  return fitting.length === 1 ? (fitting[0] as ProtocolMode) : mode;
}

/** The API key a draft ends up with: newly sent, kept from storage (present or empty), or none. */
export type DraftKey = { kind: 'new'; value: string } | { kind: 'stored'; present: boolean } | { kind: 'missing' };

export interface ProfileDraft {
  providerKind: AiProviderKind;
  baseUrl: string;
  authMode: AiAuthMode;
  apiKey: DraftKey;
  /** As stored and sent: the kind's settings among the real query parameters. */
  defaultQueryParams: Readonly<Record<string, string>>;
  discoveryMode: DiscoveryMode | undefined;
  configuredModels: ConfiguredModelInputBody[];
  purposeBindings: PurposeBindingInputBody[];
}

export interface NormalizedProfile {
  discoveryMode: DiscoveryMode;
  configuredModels: ConfiguredModelRecord[];
  purposeBindings: PurposeBindingRecord[];
}

export interface ProfileContext {
  /** The installation's kinds; the draft's kind is looked up among them. */
  registry: Pick<ProviderRegistry, 'ai'>;
  ids: Ids;
  allowPrivateEgress: boolean;
  /** Models of the stored profile (PATCH), whose ids are kept. */
  existingModels: readonly ConfiguredModelRecord[];
}

/**
 * Checks the parts of a connection that need no stored profile, against the kind it names: the
 * endpoint, the credential and the kind's settings among `defaultQueryParams`.
 */
export function endpointIssues(
  draft: Pick<ProfileDraft, 'providerKind' | 'baseUrl' | 'authMode' | 'apiKey' | 'defaultQueryParams'>,
  registry: Pick<ProviderRegistry, 'ai'>,
  allowPrivateEgress: boolean,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const kind = registry.ai.find((k) => k.kind === draft.providerKind);
  if (!kind) issues.push(unregisteredAiKindIssue(registry, draft.providerKind, 'providerKind'));
  const settings = readKindSettings(kind, draft.defaultQueryParams);
  if (!settings.ok) issues.push(...settings.issues);
  if (draft.baseUrl === '') {
    if (kind && !kind.defaultEndpoint) {
      issues.push({ path: 'baseUrl', message: `baseUrl is required for ${draft.providerKind}.` });
    }
  } else {
    const url = parseHttpUrl(draft.baseUrl);
    if (!url) issues.push({ path: 'baseUrl', message: 'baseUrl must be an absolute http or https URL.' });
    else {
      const refusal = egressRefusalOf(url, allowPrivateEgress);
      if (refusal) issues.push({ path: 'baseUrl', message: `baseUrl ${refusal.problem}.` });
    }
  }
  if (draft.authMode === 'azureIdentity') {
    const identity = kind?.managedIdentity;
    if (kind && !identity) {
      issues.push({
        path: 'auth.mode',
        message: `azureIdentity is not accepted for ${draft.providerKind}; use apiKey.`,
      });
    }
    const host = parseHttpUrl(draft.baseUrl)?.hostname;
    if (identity && host !== undefined && !identity.hosts.test(host)) {
      issues.push({
        path: 'baseUrl',
        message: `with azureIdentity must be ${identity.hostsDescription}: the installation’s identity token is sent only there. Use apiKey for other hosts.`,
      });
    }
  } else {
    const key = draft.apiKey;
    if (key.kind === 'missing') issues.push({ path: 'auth.apiKey', message: 'apiKey is required with mode apiKey.' });
    const empty = (key.kind === 'new' && key.value.trim() === '') || (key.kind === 'stored' && !key.present);
    if (empty && kind?.requiresApiKey !== false) {
      issues.push({
        path: 'auth.apiKey',
        message: `apiKey must not be empty for ${draft.providerKind}: only kinds that declare they run without a key (such as kindCompatible) may be called without one.`,
      });
    }
  }
  return issues;
}

function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every cross-field rule of a profile (spec §2, decisions.md): the endpoint and credential, model
 * inference and the embedding rules, protocol modes against capabilities and the kind, unique
 * model ids, bindings naming a model of the same profile, once per purpose, with a capable model.
 * Returns the issues with request paths, or the normalized models and bindings.
 */
export function checkProfile(
  draft: ProfileDraft,
  context: ProfileContext,
): { issues: ValidationIssue[] } | { issues: []; profile: NormalizedProfile } {
  const kind = context.registry.ai.find((k) => k.kind === draft.providerKind);
  const issues = endpointIssues(draft, context.registry, context.allowPrivateEgress);
  const kindModes = modesOfKind(kind);

  let discoveryMode: DiscoveryMode =
    draft.discoveryMode ?? (kind?.supportsDiscovery ? 'providerCatalog' : 'manualOnly');
  if (kind && !kind.supportsDiscovery && discoveryMode === 'providerCatalog') {
    issues.push({
      path: 'discoveryMode',
      message: `${draft.providerKind} cannot list its models; use manualOnly.`,
    });
    discoveryMode = 'manualOnly';
  }

  const models = normalizeModels(draft.configuredModels, draft.providerKind, kindModes, { ...context, kind }, issues);
  const bindings = normalizeBindings(draft.purposeBindings, models, draft.providerKind, kind, issues);
  if (issues.length > 0) return { issues };
  return { issues: [], profile: { discoveryMode, configuredModels: models, purposeBindings: bindings } };
}

function normalizeModels(
  inputs: readonly ConfiguredModelInputBody[],
  providerKind: AiProviderKind,
  kindModes: readonly ProtocolMode[] | undefined,
  context: ProfileContext & { kind: AiProviderKindV1 | undefined },
  issues: ValidationIssue[],
): ConfiguredModelRecord[] {
  const byId = new Map(context.existingModels.map((m) => [m.id, m]));
  const byRemoteId = new Map(context.existingModels.map((m) => [m.remoteModelId.toLowerCase(), m]));
  const seenRemote = new Set<string>();
  const seenIds = new Set<string>();
  return inputs.map((input, i) => {
    const at = (field: string) => `configuredModels[${i}].${field}`;
    const remoteKey = input.remoteModelId.toLowerCase();
    if (seenRemote.has(remoteKey)) {
      issues.push({
        path: at('remoteModelId'),
        message: `remoteModelId ${input.remoteModelId} appears more than once (ids are compared ignoring case).`,
      });
    }
    seenRemote.add(remoteKey);

    // A kept model keeps its id, so logical models pointing at it stay valid.
    let id: string;
    if (input.id != null && context.existingModels.length > 0) {
      if (!byId.has(input.id)) {
        issues.push({ path: at('id'), message: 'id does not name a configured model of this connection.' });
      }
      id = input.id;
    } else {
      id = byRemoteId.get(remoteKey)?.id ?? context.ids.uuid();
    }
    if (seenIds.has(id)) issues.push({ path: at('id'), message: 'The same model id appears more than once.' });
    seenIds.add(id);

    const operationKinds = input.operationKinds ? unique(input.operationKinds) : inferOperationKinds(input);
    const isEmbedding = operationKinds.includes('embedding');
    const isChat = operationKinds.includes('chat');
    if (isEmbedding) {
      if (input.tokenizerName == null) {
        issues.push({ path: at('tokenizerName'), message: 'tokenizerName is required for an embedding model.' });
      }
      if (input.maxInputTokens == null) {
        issues.push({ path: at('maxInputTokens'), message: 'maxInputTokens is required for an embedding model.' });
      }
      if (input.embeddingDimensions == null) {
        issues.push({
          path: at('embeddingDimensions'),
          message: 'embeddingDimensions (64 to 4096) is required for an embedding model.',
        });
      }
      if (context.kind && !context.kind.protocols.some((p) => p.operation === 'embedding')) {
        issues.push({
          path: at('operationKinds'),
          message: `${providerKind} has no embeddings API, so a model of this connection cannot be an embedding model.`,
        });
      }
    }

    const explicitModes = input.supportedProtocolModes ? unique(input.supportedProtocolModes) : undefined;
    const modes = explicitModes ?? inferProtocolModes(operationKinds, context.kind);
    (explicitModes ?? []).forEach((mode, j) => {
      const path = at(`supportedProtocolModes[${j}]`);
      if (kindModes && !kindModes.includes(mode)) {
        issues.push({
          path,
          message: `Protocol mode ${mode} is not available for ${providerKind}; use one of ${kindModes.join(', ')}.`,
        });
      } else if (operationOf(context.kind, mode) === 'embedding' && !isEmbedding) {
        issues.push({ path, message: `The embeddings protocol ${mode} needs a model with the embedding capability.` });
      } else if (operationOf(context.kind, mode) === 'chat' && !isChat) {
        issues.push({ path, message: `The chat protocol ${mode} needs a model with the chat capability.` });
      }
    });

    return {
      id,
      remoteModelId: input.remoteModelId,
      displayName: input.displayName ?? input.remoteModelId,
      operationKinds,
      supportedProtocolModes: modes,
      tokenizerName: input.tokenizerName ?? null,
      maxInputTokens: input.maxInputTokens ?? null,
      embeddingDimensions: input.embeddingDimensions ?? null,
      supportsStructuredOutput: input.supportsStructuredOutput ?? false,
      supportsToolUse: input.supportsToolUse ?? false,
      maxContextTokens: input.maxContextTokens ?? null,
      inputCostPer1MUsd: input.inputCostPer1MUsd ?? null,
      outputCostPer1MUsd: input.outputCostPer1MUsd ?? null,
      cachedInputCostPer1MUsd: input.cachedInputCostPer1MUsd ?? null,
      source: (input.source ?? 'manual') as ModelSource,
      lastSeenAt: input.lastSeenAt ? new Date(input.lastSeenAt).toISOString() : null,
    };
  });
}

function normalizeBindings(
  inputs: readonly PurposeBindingInputBody[],
  models: readonly ConfiguredModelRecord[],
  providerKind: AiProviderKind,
  kind: AiProviderKindV1 | undefined,
  issues: ValidationIssue[],
): PurposeBindingRecord[] {
  const kindModes = modesOfKind(kind);
  const seen = new Set<AiPurpose>();
  const out: PurposeBindingRecord[] = [];
  inputs.forEach((input, i) => {
    const at = (field: string) => `purposeBindings[${i}].${field}`;
    if (seen.has(input.purpose)) {
      issues.push({ path: at('purpose'), message: `Purpose ${input.purpose} may appear only once per profile.` });
    }
    seen.add(input.purpose);

    const byId = input.configuredModelId != null ? models.find((m) => m.id === input.configuredModelId) : undefined;
    const byRemote =
      input.remoteModelId != null
        ? models.find((m) => m.remoteModelId.toLowerCase() === input.remoteModelId?.toLowerCase())
        : undefined;
    if (input.configuredModelId == null && input.remoteModelId == null) {
      issues.push({ path: at('remoteModelId'), message: 'Name the model by remoteModelId or configuredModelId.' });
      return;
    }
    if (input.configuredModelId != null && !byId) {
      issues.push({
        path: at('configuredModelId'),
        message: 'configuredModelId does not name a configured model of this profile.',
      });
      return;
    }
    if (input.remoteModelId != null && !byRemote) {
      issues.push({
        path: at('remoteModelId'),
        message: `remoteModelId ${input.remoteModelId} does not match a configured model of this profile.`,
      });
      return;
    }
    if (byId && byRemote && byId !== byRemote) {
      issues.push({
        path: at('configuredModelId'),
        message: 'configuredModelId and remoteModelId name different models.',
      });
      return;
    }
    const model = (byId ?? byRemote) as ConfiguredModelRecord;
    const modelPath = at(byId ? 'configuredModelId' : 'remoteModelId');
    const protocolMode = input.protocolMode ?? 'auto';
    const needs = capabilityForPurpose(input.purpose);
    if (!model.operationKinds.includes(needs)) {
      issues.push({
        path: modelPath,
        message:
          needs === 'embedding'
            ? `embeddingDefault needs an embedding-capable model; ${model.remoteModelId} is not one.`
            : `${input.purpose} needs a chat-capable model; ${model.remoteModelId} is not one.`,
      });
    } else if (needs === 'embedding' && protocolMode !== 'auto' && operationOf(kind, protocolMode) !== 'embedding') {
      issues.push({ path: at('protocolMode'), message: 'embeddingDefault needs protocolMode auto or embeddings.' });
    } else if (needs === 'chat' && operationOf(kind, protocolMode) === 'embedding') {
      issues.push({ path: at('protocolMode'), message: `${input.purpose} needs a chat protocol mode or auto.` });
    } else if (kindModes && !kindModes.includes(protocolMode)) {
      issues.push({
        path: at('protocolMode'),
        message: `Protocol mode ${protocolMode} is not available for ${providerKind}; use one of ${kindModes.join(', ')}.`,
      });
    } else if (!model.supportedProtocolModes.includes(protocolMode)) {
      issues.push({
        path: at('protocolMode'),
        message: `Model ${model.remoteModelId} does not list protocol mode ${protocolMode} in supportedProtocolModes.`,
      });
    }
    out.push({
      purpose: input.purpose,
      configuredModelId: model.id,
      protocolMode,
      isEnabled: input.isEnabled ?? true,
    });
  });
  return out;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
