import type { OperationKind, ProtocolMode, ReasoningEffort } from '../ai-model/index.js';
import type { ValidationIssue } from '../kernel/index.js';
import type { TenancyRepositories } from '../tenancy/index.js';
import type { AiConnectionRecord } from './ai-records.js';

export interface LogicalTarget {
  capability: OperationKind;
  configuredModelId: string;
  protocolMode: ProtocolMode;
  reasoningEffort: ReasoningEffort;
}

/**
 * Whether a logical model can point at this connection's model: the model exists, has the
 * capability, and the protocol mode fits the capability, the kind and the model. The first
 * problem, with the request path it concerns.
 */
export function logicalTargetProblem(
  target: LogicalTarget,
  connection: Pick<AiConnectionRecord, 'configuredModels' | 'providerKind'>,
  kindModes: readonly ProtocolMode[] | undefined,
): ValidationIssue | undefined {
  const model = connection.configuredModels.find((m) => m.id === target.configuredModelId);
  if (!model) {
    return { path: 'configuredModelId', message: 'configuredModelId does not name a model of that connection.' };
  }
  if (!model.operationKinds.includes(target.capability)) {
    return {
      path: 'capability',
      message: `Model ${model.remoteModelId} does not have the ${target.capability} capability.`,
    };
  }
  const mode = target.protocolMode;
  if (target.capability === 'embedding' && mode !== 'auto' && mode !== 'embeddings') {
    return { path: 'protocolMode', message: 'An embedding logical model needs protocolMode auto or embeddings.' };
  }
  if (target.capability === 'chat' && mode === 'embeddings') {
    return { path: 'protocolMode', message: 'A chat logical model needs a chat protocol mode or auto.' };
  }
  if (kindModes && !kindModes.includes(mode)) {
    return {
      path: 'protocolMode',
      message: `Protocol mode ${mode} is not available for ${connection.providerKind}; use one of ${kindModes.join(', ')}.`,
    };
  }
  if (!model.supportedProtocolModes.includes(mode)) {
    return {
      path: 'protocolMode',
      message: `Model ${model.remoteModelId} does not list protocol mode ${mode} in supportedProtocolModes.`,
    };
  }
  if (target.capability === 'embedding' && target.reasoningEffort !== 'none') {
    return { path: 'reasoningEffort', message: 'reasoningEffort applies to chat models only; use none.' };
  }
  return undefined;
}

/**
 * Whether a connection belongs to the tenant — its own, or one of its clients' — which is what a
 * tenant-catalog entry may point at (never another tenant's connection).
 */
export async function connectionOfTenant(
  repos: Pick<TenancyRepositories, 'clients'>,
  c: Pick<AiConnectionRecord, 'clientId' | 'ownerTenantId'>,
  tenantId: string,
): Promise<boolean> {
  if (c.ownerTenantId !== null) return c.ownerTenantId === tenantId;
  return c.clientId !== null && (await repos.clients.findById(c.clientId))?.tenantId === tenantId;
}
