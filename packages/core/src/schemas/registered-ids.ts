import { BUILT_IN_AI_PROVIDER_KINDS, BUILT_IN_PROTOCOL_MODES } from '../ai/ai-model-v1.js';
import { BUILT_IN_PROVIDER_FAMILIES } from '../scm/scm-provider-v1.js';
import { registeredId } from './building-blocks.js';

/** The ids adapters register, as request and response fields: the built-ins listed, others accepted. */

export const providerFamily = registeredId(BUILT_IN_PROVIDER_FAMILIES, 'provider family').meta({
  description:
    'suiteDevOps (Azure DevOps), gitHostA (GitHub), gitHostB (GitLab), gitHostC (Bitbucket), or a family a plugin registers.',
});

export const aiProviderKind = registeredId(BUILT_IN_AI_PROVIDER_KINDS, 'AI provider kind').meta({
  description: 'A built-in kind (kindCloudA, kindDirect, …) or one a plugin registers.',
});

export const protocolMode = registeredId(BUILT_IN_PROTOCOL_MODES, 'protocol mode').meta({
  description: '`auto`, a built-in wire protocol, or one a registered AI provider kind declares.',
});
